/// Schema files of a chosen size for `strata-bench compiler`: many small models, or one model with many
/// properties. Every model and property is of the kinds a real schema has (a primary key, an indexed string, a
/// default, an optional link), so each step of the compiler and the generated code does its usual work.
enum ScaleSchema {
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
    /// date (a 50,000-property file is about 1 MB, the size issue #22 reports).
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
