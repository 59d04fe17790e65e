/// The demo's command-line options: `--reset` and `--path FILE`.
struct DemoOptions {
    /// Delete the database first.
    var reset = false
    /// Use this file instead of the default location.
    var path: String?

    init<Arguments: Sequence<String>>(_ arguments: Arguments) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--reset": reset = true
            case "--path": path = iterator.next()
            default: print("strata-demo: ignoring unknown option '\(argument)' (use --reset or --path FILE)")
            }
        }
    }
}
