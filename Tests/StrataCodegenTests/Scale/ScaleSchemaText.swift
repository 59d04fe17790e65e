/// Schema files of a chosen size, the same shapes as `strata-bench compiler` uses (Benchmarks/, a separate
/// package): many small models, or one model with many properties.
enum ScaleSchemaText {
    /// `count` models `Model0`…, each with five properties, the last an optional link to the next model.
    static func models(_ count: Int) -> String {
        var text = header
        for index in 0..<count {
            text += """
                  Model\(index):
                    primaryKey: id
                    properties:
                      id: int
                      name: { type: string, indexed: true }
                      score: double
                      flag: { type: bool, default: true }
                      next: Model\((index + 1) % count)?

                """
        }
        return text
    }

    /// One model `Wide` with `count` properties `p0`…, cycling through int, string, double, bool and an optional
    /// date.
    static func properties(_ count: Int) -> String {
        let types = ["int", "string", "double", "bool", "date?"]
        var text = header + "  Wide:\n    properties:\n"
        for index in 0..<count {
            text += "      p\(index): \(types[index % types.count])\n"
        }
        return text
    }

    private static let header = "schema: Scale\nversion: 1\nmodels:\n"
}
