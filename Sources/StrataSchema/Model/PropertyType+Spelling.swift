extension PropertyType {
    /// How the type is written in a schema file (`int?`, `[string]`, `Book?`, `{ enum: [low, high] }`): what
    /// messages about a property's type show, rather than Swift's dump of the enum case.
    package var spelling: String { TypeSpelling.spelling(of: self) }
}
