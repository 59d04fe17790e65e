import ArgumentParser
import Foundation

/// `strata-bench compiler`: how `strata-gen generate` and the Swift compiler's type check of the generated code
/// grow with a schema's size (issues #22 and #23): schemas of 100, 1,000 and 10,000 models and one model of
/// 1,000, 10,000 and 50,000 properties. Each run is a child process (`strata-gen` built from the main package,
/// then `swiftc -typecheck` against that build's modules); the report gives wall and CPU seconds, peak memory,
/// and the growth of CPU time from one size to the next against the growth of the size (linear: ~10x per 10x).
struct CompilerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compiler",
        abstract: "Time strata-gen and swiftc -typecheck on schemas of growing size; print the growth ratios.")

    @Option(parsing: .upToNextOption, help: "Schema sizes in models (five properties each).")
    var models = [100, 1_000, 10_000]

    @Option(parsing: .upToNextOption, help: "Schema sizes in properties of one model.")
    var properties = [1_000, 10_000, 50_000]

    @Option(help: "Type-check the generated code of schemas up to this many models (0: never).")
    var typecheckModels = 1_000

    @Option(help: "Type-check the generated code of schemas up to this many properties (0: never).")
    var typecheckProperties = 10_000

    @Option(help: "The main package's build configuration for strata-gen and the Strata module: release or debug.")
    var configuration = "release"

    @Flag(help: "Print {\"compiler\": [...]} instead of a table.")
    var json = false

    func run() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../..").standardizedFileURL
        let build = try MainPackageBuild(root: root, configuration: configuration)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-compiler-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var rows: [Row] = []
        let series: [(String, [Int], Int, (Int) -> String)] = [
            ("models", models, typecheckModels, ScaleSchema.models),
            ("properties", properties, typecheckProperties, ScaleSchema.properties),
        ]
        for (unit, sizes, typecheckLimit, schema) in series {
            for size in sizes {
                let folder = directory.appendingPathComponent("\(unit)-\(size)", isDirectory: true)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let schemaFile = folder.appendingPathComponent("Scale.v1.strata.yaml")
                try schema(size).write(to: schemaFile, atomically: true, encoding: .utf8)
                let output = folder.appendingPathComponent("Scale.swift")
                let generate = try ProcessCost.measure(
                    build.strataGen, ["generate", "--output", output.path, folder.path])
                var typecheck: ProcessCost?
                if size <= typecheckLimit {
                    typecheck = try ProcessCost.measure("swiftc", [
                        "-typecheck", "-swift-version", "6", "-I", build.modules, output.path,
                    ])
                }
                let schemaBytes = try FileManager.default.attributesOfItem(atPath: schemaFile.path)[.size] as? Int ?? 0
                let generatedBytes = try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int ?? 0
                rows.append(Row(
                    unit: unit, size: size, schemaBytes: schemaBytes, generatedBytes: generatedBytes,
                    generate: generate, typecheck: typecheck))
                if !json { print(rows[rows.count - 1].line(previous: rows.dropLast().last { $0.unit == unit })) }
            }
        }
        if json {
            print(try Row.json(rows, configuration: configuration))
        }
    }

    /// One size's figures.
    struct Row {
        var unit: String
        var size: Int
        var schemaBytes: Int
        var generatedBytes: Int
        var generate: ProcessCost
        var typecheck: ProcessCost?

        /// `1000 models (schema 184 KB, generated 4.9 MB): generate 0.57 s CPU (wall 1.81 s, peak 45.9 MB), CPU x7.5
        /// for x10 the size; swiftc -typecheck …`.
        func line(previous: Row?) -> String {
            var text = "\(size) \(unit) (schema \(megabytes(schemaBytes)), generated \(megabytes(generatedBytes))): "
                + "generate " + describe(generate, previous: previous?.generate, previousSize: previous?.size)
            if let typecheck {
                text += "; swiftc -typecheck "
                    + describe(typecheck, previous: previous?.typecheck, previousSize: previous?.size)
            } else {
                text += "; swiftc -typecheck not run at this size"
            }
            return text
        }

        private func describe(_ cost: ProcessCost, previous: ProcessCost?, previousSize: Int?) -> String {
            var text = String(format: "%.2f s CPU (wall %.2f s, peak %@)", cost.cpuSeconds, cost.wallSeconds,
                megabytes(cost.peakBytes))
            if let previous, let previousSize, previous.cpuSeconds > 0 {
                text += String(format: ", CPU x%.1f for x%.0f the size", cost.cpuSeconds / previous.cpuSeconds,
                    Double(size) / Double(previousSize))
            }
            return text
        }

        private func megabytes(_ bytes: Int) -> String {
            if bytes < 1_048_576 { return String(format: "%.0f KB", Double(bytes) / 1_024) }
            return String(format: "%.1f MB", Double(bytes) / 1_048_576)
        }

        /// `{"configuration": "release", "compiler": [{"unit": "models", "size": 100, ...}]}`.
        static func json(_ rows: [Row], configuration: String) throws -> String {
            let objects: [[String: Any]] = rows.map { row in
                var object: [String: Any] = [
                    "unit": row.unit, "size": row.size, "schemaBytes": row.schemaBytes,
                    "generatedBytes": row.generatedBytes, "generateCPUSeconds": row.generate.cpuSeconds,
                    "generateWallSeconds": row.generate.wallSeconds, "generatePeakBytes": row.generate.peakBytes,
                ]
                if let typecheck = row.typecheck {
                    object["typecheckCPUSeconds"] = typecheck.cpuSeconds
                    object["typecheckWallSeconds"] = typecheck.wallSeconds
                    object["typecheckPeakBytes"] = typecheck.peakBytes
                }
                return object
            }
            let data = try JSONSerialization.data(
                withJSONObject: ["configuration": configuration, "compiler": objects], options: [.sortedKeys])
            return String(decoding: data, as: UTF8.self)
        }
    }
}

/// The main package built for the benchmark: `strata-gen`, and the `Strata` module the generated code imports.
struct MainPackageBuild {
    /// The `strata-gen` executable.
    let strataGen: String
    /// The folder of the build's Swift modules, for `swiftc -I`.
    let modules: String

    /// Builds `strata-gen` and `Strata` in `configuration` (release or debug) in the package at `root`.
    init(root: URL, configuration: String) throws {
        guard ["release", "debug"].contains(configuration) else {
            throw BenchmarkError("--configuration is release or debug, not '\(configuration)'")
        }
        let common = ["build", "-c", configuration, "--package-path", root.path]
        _ = try ProcessCost.measure("swift", common + ["--product", "strata-gen"])
        _ = try ProcessCost.measure("swift", common + ["--target", "Strata"])
        let binPath = try Self.output(of: "swift", common + ["--show-bin-path"])
        strataGen = binPath + "/strata-gen"
        modules = binPath + "/Modules"
    }

    private static func output(of executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\(executable) \(arguments.joined(separator: " ")) failed")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
