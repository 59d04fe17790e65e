import StrataSchema

/// The rules of `embedded: true` models in one schema version, as Realm applies them.
///
/// An embedded model's objects have no identity of their own: each belongs to exactly one parent slot (a to-one
/// link or a list element of its parent) and is deleted with it. So an embedded model:
/// - has no primary key (nothing can look it up on its own);
/// - is reached by at least one link or list from another model (otherwise none of its objects could exist);
/// - is not part of a cycle of embedded links (`A` embeds `B` embeds `A`): an object would own its own owner.
///
/// Every link or list to an embedded model is an ownership slot; an embedded model may link to top-level models,
/// hold embedded links itself, have indexes and declare linking objects (its owners). What it may not be is the
/// source of another model's linking objects (`LinkingObjects` holds top-level objects only).
struct EmbeddedModelRules {
    private(set) var diagnostics: [Diagnostic] = []
    private let version: SchemaVersion
    private let sourceMap: SourceMap
    private let models: NameLookup<ModelDefinition>

    init(version: SchemaVersion, sourceMap: SourceMap, models: NameLookup<ModelDefinition>) {
        self.version = version
        self.sourceMap = sourceMap
        self.models = models
    }

    /// Checks every embedded model of the version.
    mutating func check() {
        let embedded = version.models.filter(\.isEmbedded)
        guard !embedded.isEmpty else { return }
        var linkedFrom: [String: [String]] = [:]
        for model in version.models {
            for property in model.properties where !property.isTransient {
                guard let target = SchemaVersion.storedLinkTarget(of: property.type), models[target]?.isEmbedded == true
                else { continue }
                linkedFrom[target, default: []].append("\(model.name).\(property.name)")
            }
        }
        for model in version.models {
            for property in model.properties {
                if case .set(.link(let target)) = property.type, models[target]?.isEmbedded == true {
                    diagnostics.append(.error(
                        "property '\(model.name).\(property.name)' is a set of the embedded model '\(target)': a set "
                            + "keeps objects by identity, which embedded objects do not have; use a list "
                            + "('[\(target)]') or a map ('map<\(target)?>')",
                        at: sourceMap[.propertyValue(model: model.name, property: property.name, field: "type")]))
                }
                guard case .linkingObjects(let source, let link) = property.type, models[source]?.isEmbedded == true
                else { continue }
                diagnostics.append(.error(
                    "linkingObjects of '\(model.name).\(property.name)' names '\(source).\(link)', a link of the "
                        + "embedded model '\(source)': embedded objects are reached through their owners, never "
                        + "listed on their own; name a link of a top-level model",
                    at: sourceMap[.propertyValue(model: model.name, property: property.name, field: "linkingObjects")]))
            }
        }
        for model in embedded {
            let at = sourceMap[.modelKey(model: model.name, field: "embedded")]
            if model.primaryKey != nil {
                diagnostics.append(.error(
                    "embedded model '\(model.name)' cannot have a primary key: its objects belong to a parent object "
                        + "and are never looked up on their own; remove 'primaryKey:' or 'embedded: true'",
                    at: sourceMap[.modelValue(model: model.name, field: "primaryKey")]))
            }
            if linkedFrom[model.name, default: []].allSatisfy({ $0.hasPrefix(model.name + ".") }) {
                diagnostics.append(.error(
                    "embedded model '\(model.name)' is not reached by any link or list of another model, so none of "
                        + "its objects could exist: link to it ('home: \(model.name)?' or 'homes: [\(model.name)]') "
                        + "or remove 'embedded: true'", at: at))
            } else if let cycle = embeddedCycle(from: model.name) {
                diagnostics.append(.error(
                    "embedded model '\(model.name)' owns itself through \(cycle.joined(separator: " → ")): an "
                        + "embedded object would own its own owner; make one model of the cycle a top-level model",
                    at: at))
            }
        }
    }

    /// The links (`Model.property`) of a path of embedded links from `start` back to `start`, if there is one.
    private func embeddedCycle(from start: String) -> [String]? {
        var visited: Set<String> = []
        var stack: [(model: String, path: [String])] = [(start, [])]
        while let (name, path) = stack.popLast() {
            guard let model = models[name] else { continue }
            for property in model.properties where !property.isTransient {
                guard let target = SchemaVersion.storedLinkTarget(of: property.type),
                    let targetModel = models[target], targetModel.isEmbedded
                else { continue }
                let step = path + ["\(model.name).\(property.name)"]
                if target == start { return step }
                if visited.insert(target).inserted { stack.append((target, step)) }
            }
        }
        return nil
    }
}
