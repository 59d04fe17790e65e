import StrataStorage

extension Results {
    /// The objects among these results whose `property` matches a full-text query, most relevant first (BM25;
    /// equal scores in object-key order), each with its score and the matched ranges of its text.
    ///
    /// The query is what `TEXT` takes: words that must all occur, `-word`, `prefix*`, `"a phrase"`
    /// (docs/QUERIES.md, "Full-text search"). `property` must be a `fullText: true` string property.
    ///
    /// ```swift
    /// for hit in try db.objects(Note.self).search("swift data*", in: "body").prefix(10) {
    ///     print(hit.score, hit.object.title, hit.ranges.map { hit.text[$0] })
    /// }
    /// ```
    ///
    /// - Throws: `StrataError.invalidArgument` when `property` has no full-text index; a `StrataError` for a
    ///   damaged file.
    public func search(_ query: String, in property: String) throws -> [SearchHit<Element>] {
        try database.withAccess("searching Results<\(Element.self)>") {
            guard let position = model.description.properties.firstIndex(where: { $0.name == property }),
                model.definition.property(named: property)?.isFullText == true
            else {
                throw StrataError.invalidArgument(
                    "\(model.name).\(property) has no full-text index; mark it 'fullText: true' in the schema")
            }
            let column = model.columns[position]
            let table = try database.table(for: model)
            guard let index = table.fullTextIndex(on: column) else {
                throw StrataError.invalidArgument("the file has no full-text index for \(model.name).\(property)")
            }
            let parsed = FullTextQuery(query)
            let ranked = try FullTextIndexSearch(table: table, index: index.key, query: parsed).ranked()
            if let failure = self.query.failure { throw failure }
            let selected = Set(try self.query.evaluate(in: database, model: model))
            return try ranked.compactMap { hit -> SearchHit<Element>? in
                let (key, score) = hit
                guard selected.contains(key), let object = database.object(of: model, key: key) as? Element else {
                    return nil
                }
                guard case .string(let text) = try table.value(key, column: column) else { return nil }
                return SearchHit(object: object, score: score, text: text, ranges: parsed.highlights(in: text))
            }
        }
    }
}
