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
    /// With `limit`, only the best `limit` hits are read and returned; over a whole table, words alone are ranked by
    /// block-max pruning (only the matches that may still enter the best `limit` are scored), anything else by
    /// scoring every match.
    ///
    /// - Throws: `StrataError.invalidArgument` when `property` has no full-text index; a `StrataError` for a
    ///   damaged file.
    public func search(_ query: String, in property: String, limit: Int? = nil) throws -> [SearchHit<Element>] {
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
            if let failure = self.query.failure { throw failure }
            // Every object of the table needs no filtering; otherwise the results' own keys narrow the hits.
            var isWholeTable = false
            if case .table = self.query.source, self.query.filterCount == 0, self.query.distinctPaths.isEmpty,
                self.query.limit == nil
            {
                isWholeTable = true
            }
            // Over the whole table, only the best `limit` are ranked in order (a bounded heap); each is an object
            // of the table, so none is skipped below.
            let ranked = try FullTextIndexSearch(table: table, index: index.key, query: parsed)
                .ranked(limit: isWholeTable ? limit : nil)
            let selected = isWholeTable ? [] : Set(try self.query.evaluate(in: database, model: model))
            var hits: [SearchHit<Element>] = []
            for (key, score) in ranked where isWholeTable || selected.contains(key) {
                if let limit, hits.count >= limit { break }
                // The text read straight from its cluster's block (no copy of its bytes; ASCII not validated).
                guard let object = database.object(of: model, key: key) as? Element,
                    let text = try table.string(key, column: column)
                else { continue }
                hits.append(SearchHit(object: object, score: score, text: text, query: parsed))
            }
            return hits
        }
    }
}
