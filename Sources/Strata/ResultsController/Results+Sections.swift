import Foundation
import StrataStorage

extension Results {
    /// Reads, for any object of these results, its value of the first sort key as text: the section a
    /// ``ResultsController`` files it under. Nil reads as `""`, dates in ISO 8601, objects by model and key.
    ///
    /// The reader keeps the tables it looked up, so make one per batch of objects.
    func sectionNameReader() -> (ObjectKey) -> String {
        guard let path = query.sortKeys.first?.path else { return { _ in "" } }
        let evaluator = ObjectEvaluator(database: database)
        return { key in
            do {
                return Self.sectionName(try evaluator.values(of: path, from: .object(key)).first ?? .null)
            } catch {
                database.fatal(error, while: "reading the section of \(model.name) \(key)")
            }
        }
    }

    private static func sectionName(_ value: QueryScalar) -> String {
        switch value {
        case .null: return ""
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return value
        case .data(let bytes): return bytes.map { String(format: "%02x", $0) }.joined()
        case .timestamp(let value): return ValueConversion.date(value).formatted(.iso8601)
        case .uuid(let value): return value.uuidString
        case .object(let key): return "\(key)"
        case .decimal(let value): return "\(value)"
        case .objectId(let value): return value.stringValue
        case .typedObject(let table, let key): return "\(table):\(key)"
        }
    }
}
