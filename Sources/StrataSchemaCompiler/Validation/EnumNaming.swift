/// How an enum property's nested Swift type is named: `status` → `Status` (docs/SCHEMA.md: "generates
/// `Person.Status: String`"). Validation uses it to refuse two enum properties that would clash; code
/// generation should use the same function so both agree.
public enum EnumNaming {
    /// The nested enum type's name for the enum property `property`: its name with the first letter upper-cased.
    public static func typeName(forProperty property: String) -> String {
        guard let first = property.first else { return property }
        return first.uppercased() + property.dropFirst()
    }
}
