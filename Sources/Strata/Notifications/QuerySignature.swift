import StrataStorage

/// A text that two queries share exactly when they select the same objects in the same order: the source, every
/// resolved key path (by table and column), operator, option and constant, the sort and distinct keys. A
/// delivery computes the change of results with equal signatures (and equal watched properties, from the same
/// version) once and hands it to each of their observers.
enum QuerySignature {
    static func of(_ query: ObjectQuery, model: ModelBinding) -> String {
        var text = "\(model.tableKey.rawValue)|"
        switch query.source {
        case .table: text += "table"
        case .list(let owner, let key, let column): text += "list(\(owner.tableKey.rawValue),\(key.rawValue),\(column))"
        case .linkingObjects(let target, let key, let source, let column):
            text += "linking(\(target.tableKey.rawValue),\(key.rawValue),\(source.tableKey.rawValue),\(column))"
        }
        text += "|where " + query.filters.map(of).joined(separator: " & ")
        text += "|sort " + query.sortKeys.map { of($0.path) + ($0.ascending ? "+" : "-") }.joined(separator: ",")
        text += "|distinct " + query.distinctPaths.map(of).joined(separator: ",")
        return text
    }

    /// The watched properties' part of a change's identity (modifications depend on them).
    static func of(_ watched: WatchedProperties) -> String {
        let own = watched.own.map(\.rawValue).sorted().map(String.init).joined(separator: ",")
        let links = watched.links.map { link in
            "\(link.column)>\(link.target.tableKey.rawValue):" + link.columns.map(\.rawValue).sorted().map(String.init).joined(separator: ",")
        }
        return "own " + own + " links " + links.joined(separator: ";")
    }

    private static func of(_ predicate: BoundPredicate) -> String {
        switch predicate {
        case .constant(let value): return value ? "T" : "F"
        case .not(let inner): return "!(" + of(inner) + ")"
        case .and(let terms): return "and(" + terms.map(of).joined(separator: ",") + ")"
        case .or(let terms): return "or(" + terms.map(of).joined(separator: ",") + ")"
        case .comparison(let comparison):
            return "cmp(\(comparison.quantifier.rawValue),\(of(comparison.left)),\(comparison.op.rawValue),"
                + "\(comparison.options.rawValue),\(of(comparison.right)))"
        }
    }

    private static func of(_ operand: BoundOperand) -> String {
        switch operand {
        case .value(let scalar): return "v" + String(reflecting: scalar)
        case .list(let scalars): return "l[" + scalars.map { String(reflecting: $0) }.joined(separator: ",") + "]"
        case .path(let path): return of(path)
        case .aggregate(let collection, let function, let property):
            return "agg(\(of(collection)),\(function.rawValue),\(property.map(of) ?? "-"))"
        case .subqueryCount(let collection, let variable, let predicate):
            return "sub(\(of(collection)),\(variable.debugDescription),\(of(predicate)))"
        }
    }

    private static func of(_ path: BoundPath) -> String {
        let root: String
        switch path.root {
        case .object: root = "$self"
        case .variable(let name): root = "$" + name.debugDescription
        }
        let steps = path.steps.map { step -> String in
            switch step {
            case .property(let model, let column): return "p\(model.tableKey.rawValue).\(column)"
            case .linkingObjects(let target, let source, let column):
                return "lo\(target.tableKey.rawValue)<\(source.tableKey.rawValue).\(column)"
            }
        }
        return root + "/" + steps.joined(separator: "/")
    }
}
