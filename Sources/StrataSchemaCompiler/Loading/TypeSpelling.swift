import StrataSchema

/// Reads a type as written in a schema file (`int`, `date?`, `[string]`, `Book?`) into a `PropertyType`.
///
/// A name that is not a primitive becomes `.link(name)`; whether that model exists, and whether the link is
/// written optional, is checked by validation, which knows every model of the version and can suggest one. The
/// inverse, how a type is written, is `PropertyType.schemaSpelling` (in StrataSchema: fingerprints need it).
enum TypeSpelling {
    /// The primitive type names of docs/SCHEMA.md, in the order they are suggested.
    static let primitives: [(name: String, type: PropertyType)] = [
        ("bool", .bool), ("int", .integer(.int)), ("int64", .integer(.int64)), ("int32", .integer(.int32)),
        ("int16", .integer(.int16)), ("int8", .integer(.int8)), ("float", .float), ("double", .double),
        ("string", .string), ("date", .date), ("data", .data), ("uuid", .uuid), ("decimal", .decimal),
        ("objectId", .objectId), ("any", .any),
    ]

    /// Why a spelling cannot be read; the message is complete and says what to write instead.
    struct Problem: Error, Equatable {
        var message: String
    }

    /// Parses a whole type spelling.
    static func parse(_ text: String) -> Result<PropertyType, Problem> {
        let spelling = text.trimmingSpaces
        if let collection = collection(spelling) { return collection }
        if spelling.hasPrefix("[") {
            guard spelling.hasSuffix("]"), spelling.count >= 2 else {
                if spelling.hasSuffix("]?") {
                    return .failure(Problem(message:
                        "a list is never nil, so '\(spelling)' cannot be optional: write '\(spelling.dropLast())'"))
                }
                return .failure(Problem(message:
                    "cannot read type '\(spelling)': a list is written '[string]' or '[Book]'"))
            }
            return element(String(spelling.dropFirst().dropLast()), in: spelling).map { .list($0) }
        }
        if spelling.hasSuffix("?") {
            let base = String(spelling.dropLast()).trimmingSpaces
            if base.hasSuffix("?") {
                return .failure(Problem(message: "cannot read type '\(spelling)': write a single '?' ('\(base)')"))
            }
            // `any` holds null itself: `any?` is the same type.
            return single(base, whole: spelling).map { $0 == .any ? .any : .optional($0) }
        }
        return single(spelling, whole: spelling)
    }

    /// Parses the element type of a list (`string` in `[string]`), which is neither optional nor a list.
    static func element(_ text: String, in whole: String) -> Result<PropertyType, Problem> {
        let spelling = text.trimmingSpaces
        if spelling.hasPrefix("[") || isCollection(spelling) {
            return .failure(Problem(message: "lists of lists, sets or maps are not supported ('\(whole)'): use a "
                + "list of a model"))
        }
        if spelling.hasSuffix("?") {
            if String(spelling.dropLast()).trimmingSpaces == "any" { return .success(.any) }
            return .failure(Problem(message:
                "list elements cannot be nil ('\(whole)'): write '[\(spelling.dropLast())]'"))
        }
        return single(spelling, whole: whole)
    }

    /// `set<T>` or `map<T>` (`nil` for any other spelling): T is a primitive, `T?`, a model (`set<Person>`) or an
    /// optional model (`map<Person?>`); which of those each collection takes is checked by validation.
    private static func collection(_ spelling: String) -> Result<PropertyType, Problem>? {
        guard isCollection(spelling) else { return nil }
        let noun = spelling.hasPrefix("set") ? "set" : "map"
        if spelling.hasSuffix(">?") {
            return .failure(Problem(message:
                "a \(noun) is never nil, so '\(spelling)' cannot be optional: write '\(spelling.dropLast())'"))
        }
        guard spelling.hasSuffix(">") else {
            return .failure(Problem(message:
                "cannot read type '\(spelling)': a \(noun) is written '\(noun)<string>', '\(noun)<int?>' or "
                    + (noun == "set" ? "'set<Person>'" : "'map<Person?>'")))
        }
        let inner = String(spelling.dropFirst(4).dropLast()).trimmingSpaces
        if inner.hasPrefix("[") || isCollection(inner) {
            return .failure(Problem(message: "\(noun)s of lists, sets or maps are not supported ('\(spelling)'): "
                + "use a \(noun) of a model"))
        }
        let element: Result<PropertyType, Problem>
        if inner.hasSuffix("?") {
            // `any` holds null itself: `map<any?>` is `map<any>`, as `any?` is `any`.
            element = single(String(inner.dropLast()).trimmingSpaces, whole: spelling)
                .map { $0 == .any ? .any : .optional($0) }
        } else {
            element = single(inner, whole: spelling)
        }
        return element.map { noun == "set" ? .set($0) : .map($0) }
    }

    /// Whether `spelling` is written as a set or a map (`set<…`, `map<…`).
    private static func isCollection(_ spelling: String) -> Bool {
        spelling.hasPrefix("set<") || spelling.hasPrefix("map<")
    }

    /// A primitive or a model name, without `?` or brackets.
    private static func single(_ spelling: String, whole: String) -> Result<PropertyType, Problem> {
        if let primitive = primitives.first(where: { $0.name == spelling }) { return .success(primitive.type) }
        guard Identifier.isValid(spelling) else {
            let shown = spelling.isEmpty ? whole : spelling
            return .failure(Problem(message:
                "cannot read type '\(shown)': write a type such as 'string', 'int?', '[string]', 'set<string>', "
                    + "'map<int>' or 'Book?'"))
        }
        return .success(.link(spelling))
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
