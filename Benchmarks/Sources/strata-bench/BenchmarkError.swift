/// A failure of the benchmark itself (an engine error, a wrong answer), printed and fatal to the run.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
