/// Names of Swift's and Foundation's types that a model class or schema type would hide in the app's target.
///
/// The generated classes are top-level types of the app's module, so a model called `Task` makes every `Task` in
/// the target mean the model: `Task.detached { }` then fails with "type 'Task' has no member 'detached'". Apps
/// already ship such names, so they are not refused (unlike ``ReservedNames``, which the generated code itself
/// needs); the compiler warns at the name, with the qualified spelling of the hidden type and a rename.
enum ShadowedTypeNames {
    /// The module to qualify a hidden type with, by type name: `Swift` (the standard library and concurrency)
    /// or `Foundation`.
    static let modules: [String: String] = {
        let swift = [
            "Actor", "AnyHashable", "AnyObject", "AsyncSequence", "AsyncStream", "Character", "CheckedContinuation",
            "Clock", "ClosedRange", "Codable", "Collection", "Comparable", "ContinuousClock", "Decodable", "Decoder",
            "Duration", "Encodable", "Encoder", "Equatable", "Error", "Hashable", "Hasher", "Identifiable", "KeyPath",
            "MainActor", "Mirror", "Never", "ObjectIdentifier", "Range", "Result", "Sendable", "Sequence", "Slice",
            "StaticString", "Substring", "Task", "TaskGroup", "TaskPriority", "UInt", "UInt8", "UInt16", "UInt32",
            "UInt64", "Unicode", "Void",
        ]
        let foundation = [
            "AttributedString", "Bundle", "Calendar", "CharacterSet", "DateComponents", "DateFormatter",
            "DateInterval", "Decimal", "Expression", "FileHandle", "FileManager", "Formatter", "Host", "IndexPath",
            "IndexSet", "JSONDecoder", "JSONEncoder", "Locale", "Measurement", "Notification", "NotificationCenter",
            "NSObject", "Operation", "OperationQueue", "PersonNameComponents", "Pipe", "Port", "Predicate",
            "Process", "Progress", "RunLoop", "Scanner", "Stream", "Thread", "TimeZone", "Timer", "Unit", "URL",
            "URLComponents", "URLRequest", "URLSession",
        ]
        var modules: [String: String] = [:]
        for name in swift { modules[name] = "Swift" }
        for name in foundation { modules[name] = "Foundation" }
        return modules
    }()

    /// The warning for a model (`isModel`) or schema named `name`, or `nil` when the name hides nothing.
    ///
    /// A model: `model 'Task' hides Swift's 'Task' in the target that compiles it: there, 'Task' means the model
    /// class (so 'Task.detached { }' fails with "type 'Task' has no member 'detached'"); write 'Swift.Task' where
    /// the code means Swift's, or name the model differently (for example 'TaskItem', with 'renamedFrom: Task' in
    /// the next version if it has shipped)`.
    static func warning(for name: String, isModel: Bool) -> String? {
        guard let module = modules[name] else { return nil }
        let what = isModel ? "model" : "schema"
        var message = "\(what) '\(name)' hides \(module)'s '\(name)' in the target that compiles it: there, "
            + "'\(name)' means the \(isModel ? "model class" : "schema type")"
        if name == "Task" {
            message += " (so 'Task.detached { }' fails with \"type 'Task' has no member 'detached'\")"
        }
        message += "; write '\(module).\(name)' where the code means \(module)'s"
        if isModel {
            message += ", or name the model differently (for example '\(name)Item', with 'renamedFrom: \(name)' in "
                + "the next version if it has shipped)"
        }
        return message
    }
}
