extension QueryExpression {
    /// The parts of the key path this expression is (always one: aggregates are ``QueryAggregate``).
    private var mapPath: (root: KeyPathRoot, components: [String], offset: Int) {
        guard case .keyPath(let root, let components, let offset) = operand else { return (.object, [], 0) }
        return (root, components, offset)
    }

    private func appending(_ component: String) -> QueryExpression {
        let path = mapPath
        return QueryExpression(
            .keyPath(root: path.root, components: path.components + [component], offset: path.offset), depth: depth)
    }

    /// `map['key']`: the value of a map property under `key`, nil when the map has none
    /// (`$0.scores["math"] > 15`).
    public subscript(key: String) -> QueryExpression { appending(MapPathComponent.subscripted(key)) }

    /// `map.@allKeys`: the keys of a map property, to quantify over (`$0.scores.allKeys.any { $0.value == "x" }`
    /// or compare, which means ANY).
    public var allKeys: QueryExpression { appending(MapPathComponent.allKeys) }

    /// `map.@allValues`: the values of a map property (what the map itself stands for in a comparison).
    public var allValues: QueryExpression { appending(MapPathComponent.allValues) }
}
