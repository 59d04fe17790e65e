import StrataSchema

/// Emits the typed members of `Query<Model>`: one per stored property and linking objects, so that
/// `results.where { $0.age > 18 }` names only properties the model has, checked by the Swift compiler.
struct QueryMembersEmitter {
    /// The model.
    let model: ModelDefinition
    /// `public ` or empty.
    let access: String

    /// Writes `extension Query where Element == Model { var property: QueryExpression { … } }`.
    func emit(into writer: inout SwiftWriter) {
        let queried = model.properties.filter { !$0.isTransient }
        guard !queried.isEmpty else { return }
        let name = SwiftIdentifier.escaped(model.name)
        writer.doc("The properties of `\(model.name)` in typed queries: `where { $0.\(queried[0].name) … }`.")
        writer.block("extension Query where Element == \(name)") { body in
            for (position, property) in queried.enumerated() {
                if position > 0 { body.line() }
                body.doc("`\(model.name).\(property.name)` in a typed query.")
                body.line(
                    "\(access)var \(SwiftIdentifier.escaped(property.name)): QueryExpression "
                        + "{ member(named: \(SwiftLiteral.string(property.name))) }")
            }
        }
    }
}
