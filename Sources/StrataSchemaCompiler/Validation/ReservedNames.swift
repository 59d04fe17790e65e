/// Type names that generated code uses unqualified, so a schema or model may not take them: a model called
/// `Date` would hide Foundation's `Date` in every generated file of the target.
enum ReservedNames {
    /// Names of Swift, Foundation and Strata types the generated code refers to.
    static let typeNames: Set<String> = [
        "Any", "Array", "Bool", "Configuration", "Data", "Database", "Date", "Dictionary", "Double", "Float",
        "Int", "Int8", "Int16", "Int32", "Int64", "LinkingObjects", "List", "Migration", "Object", "Optional",
        "Protocol", "Results", "Schema", "Self", "Set", "Strata", "String", "Type", "UUID",
    ]
}
