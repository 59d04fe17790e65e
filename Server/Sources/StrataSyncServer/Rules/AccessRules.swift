import Foundation
import StrataSchema
import Yams

/// The rules file (`--rules F`, YAML or JSON): per model, who reads and writes which objects. A model without a
/// rule is not synced: uploads of it are refused and downloads never carry it.
///
/// ```yaml
/// models:
///   Note: { owner: ownerId }                    # each user's own notes
///   Catalog: { shared: read, writers: [admin] } # everyone reads, only "admin" writes
///   Board: { shared: readWrite }                # everyone reads and writes
/// ```
public struct AccessRules: Sendable, Hashable {
    /// The rule of each synced model.
    public var models: [String: ModelRule]

    /// Creates rules.
    public init(models: [String: ModelRule]) {
        self.models = models
    }

    /// Parses a rules file's text.
    /// - Throws: `RulesError` naming the model and key that are wrong.
    public init(yaml text: String) throws {
        let document: Any?
        do {
            document = try Yams.load(yaml: text)
        } catch {
            throw RulesError("the rules file is not valid YAML or JSON: \(error)")
        }
        guard let root = document as? [String: Any], let models = root["models"] as? [String: Any] else {
            throw RulesError("the rules file needs a top-level 'models:' mapping of model names to rules")
        }
        var rules: [String: ModelRule] = [:]
        for (model, value) in models {
            guard let entry = value as? [String: Any] else {
                throw RulesError("rule of \(model): expected a mapping such as { owner: ownerId } or { shared: read }")
            }
            let unknown = Set(entry.keys).subtracting(["owner", "shared", "writers"])
            if let key = unknown.sorted().first {
                throw RulesError("rule of \(model): unknown key '\(key)' (owner, shared, writers)")
            }
            if let field = entry["owner"] {
                guard let field = field as? String, entry["shared"] == nil, entry["writers"] == nil else {
                    throw RulesError("rule of \(model): 'owner' takes a property name and excludes shared and writers")
                }
                rules[model] = .owner(field: field)
            } else if let mode = entry["shared"] as? String {
                let writers = entry["writers"].map { ($0 as? [Any])?.map { "\($0)" } ?? [] }
                switch mode {
                case "read": rules[model] = .shared(writers: Set(writers ?? []))
                case "readWrite":
                    guard writers == nil else {
                        throw RulesError("rule of \(model): 'writers' only goes with 'shared: read'")
                    }
                    rules[model] = .shared(writers: nil)
                default:
                    throw RulesError("rule of \(model): 'shared' is 'read' or 'readWrite', not '\(mode)'")
                }
            } else {
                throw RulesError("rule of \(model): needs 'owner: field' or 'shared: read' / 'shared: readWrite'")
            }
        }
        self.models = rules
    }

    /// Reads and parses a rules file.
    public static func load(path: String) throws -> AccessRules {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RulesError("cannot read the rules file \(path)")
        }
        return try AccessRules(yaml: String(decoding: data, as: UTF8.self))
    }

    /// Checks the rules against the schema: every model exists, and every owner field is a string property.
    public func validate(against schema: SyncSchema) throws {
        for (model, rule) in models.sorted(by: { $0.key < $1.key }) {
            guard let table = schema.table(model) else {
                throw RulesError("the rules name model \(model), which the schema files do not define")
            }
            if case .owner(let field) = rule {
                guard let column = table.column(named: field), column.base == .string else {
                    throw RulesError("rule of \(model): owner field '\(field)' must be a string property of \(model)")
                }
            }
        }
    }

    /// Models every user reads.
    var sharedModels: [String] {
        models.filter { if case .shared = $0.value { return true } else { return false } }.keys.sorted()
    }

    /// Models whose objects only their owner reads.
    var ownedModels: [String] {
        models.filter { if case .owner = $0.value { return true } else { return false } }.keys.sorted()
    }
}

/// A problem with the rules file.
public struct RulesError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
