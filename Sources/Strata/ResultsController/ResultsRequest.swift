/// What a ``ResultsController`` fetches: a model, an optional predicate string with its arguments, and the order.
///
/// ```swift
/// let request = ResultsRequest(Task.self, predicate: "resolved == %@", arguments: [false],
///                              sortDescriptors: ["projectName", "title"])
/// ```
public struct ResultsRequest<Element: Object> {
    /// A predicate in the syntax of `Results.filter(_:)`, or nil for every object.
    public var predicate: String?
    /// The values of the predicate's `%@`, `%d`, `%f` and `%K`.
    public var arguments: [Any]
    /// The order, first descriptor first; with sections, the first one must be the section key path.
    public var sortDescriptors: [SortDescriptor]

    /// A request for the objects of `type` that match `predicate`, in the order of `sortDescriptors`.
    public init(
        _ type: Element.Type = Element.self, predicate: String? = nil, arguments: [Any] = [],
        sortDescriptors: [SortDescriptor] = []
    ) {
        self.predicate = predicate
        self.arguments = arguments
        self.sortDescriptors = sortDescriptors
    }

    /// The request's live results in `database`.
    ///
    /// - Throws: `StrataError.invalidPredicate` for a malformed predicate or wrong arguments;
    ///   `StrataError.invalidArgument` for a sort descriptor's unknown key path (``Results/keyPathError``).
    public func results(in database: Database) throws -> Results<Element> {
        var results = database.objects(Element.self)
        if let predicate { results = try results.filter(predicate, arguments: arguments) }
        guard !sortDescriptors.isEmpty else { return results }
        let sorted = results.sorted(by: sortDescriptors)
        if let error = sorted.keyPathError { throw error }
        return sorted
    }
}
