/// What one page of a model's table asks for: the part of the objects the page shows, in which order, and which
/// objects (all, or those a predicate selects).
struct PageRequest: Sendable {
    /// The model (table) name.
    var model: String
    /// The position of the first object shown.
    var offset = 0
    /// How many objects the page shows (at most ``maximumLimit``).
    var limit = 50
    /// The property to order by; `nil` orders by the stable object key (the order objects were added in).
    var sort: String?
    /// Whether the order is descending.
    var descending = false
    /// A predicate (`age >= 18 AND home.city == 'Oslo'`); `nil` or empty selects every object.
    var filter: String?
    /// Whether a filtered page counts every match (a scan of the whole table) rather than stopping at the page.
    var countAll = false

    /// The largest page the server returns.
    static let maximumLimit = 500

    /// The request in `query` (the URL's parameters `model`, `offset`, `limit`, `sort`, `desc`, `filter`,
    /// `count`).
    init(query: [String: String]) throws {
        guard let model = query["model"], !model.isEmpty else { throw StudioError(400, "the request names no model") }
        self.model = model
        if let text = query["offset"] {
            guard let value = Int(text), value >= 0 else {
                throw StudioError(400, "offset '\(text)' is not a position")
            }
            offset = value
        }
        if let text = query["limit"] {
            guard let value = Int(text), value > 0 else { throw StudioError(400, "limit '\(text)' is not a count") }
            limit = min(value, Self.maximumLimit)
        }
        sort = query["sort"].flatMap { $0.isEmpty ? nil : $0 }
        descending = query["desc"] == "1" || query["desc"] == "true"
        filter = query["filter"].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        countAll = query["count"] == "1" || query["count"] == "true"
    }

    /// A request for the first page of `model`.
    init(model: String) {
        self.model = model
    }
}
