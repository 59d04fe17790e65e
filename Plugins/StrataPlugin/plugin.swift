import Foundation
import PackagePlugin

/// Compiles a target's Strata schemas into Swift before the target builds.
///
/// Schema files (`*.strata.yaml`, `*.strata.yml`) are taken from the target's own folder and from
/// `<package root>/Schemas/<TargetName>/`. The plugin only finds them and runs `strata-gen generate`; every
/// diagnostic comes from `strata-gen` as `path:line:column: error: message`, so SwiftPM shows it and fails the build.
@main
struct StrataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let sourceTarget = target as? SourceModuleTarget else { return [] }
        let ownSchemas = sourceTarget.sourceFiles.map(\.url).filter { Self.isSchemaFile($0.lastPathComponent) }
        let sharedFolder = context.package.directoryURL
            .appendingPathComponent("Schemas", isDirectory: true)
            .appendingPathComponent(target.name, isDirectory: true)
        let sharedSchemas = Self.schemaFiles(under: sharedFolder)
        let schemas = (ownSchemas + sharedSchemas).sorted { $0.path < $1.path }
        guard !schemas.isEmpty else { return [] }

        // SwiftPM plans the build again when a target's own files change, but not when a file appears in
        // Schemas/<Target>/ (a new schema version). So the shared folder itself is passed to strata-gen, which
        // searches it on every run, and is an input whose change (a file added or removed) reruns the command.
        let sharedInputs = sharedSchemas.isEmpty ? [] : [sharedFolder]
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("\(target.name)+Schemas.swift")
        return [
            .buildCommand(
                displayName: "Compiling \(schemas.count) Strata schema file(s) for \(target.name)",
                executable: try context.tool(named: "strata-gen").url,
                arguments: ["generate", "--output", output.path] + ownSchemas.map(\.path) + sharedInputs.map(\.path),
                inputFiles: schemas + sharedInputs,
                outputFiles: [output]
            ),
        ]
    }

    /// Whether `name` is a schema file's name.
    static func isSchemaFile(_ name: String) -> Bool {
        name.hasSuffix(".strata.yaml") || name.hasSuffix(".strata.yml")
    }

    /// Every schema file under `folder`, searched recursively; none if the folder does not exist.
    static func schemaFiles(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]
        ) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { isSchemaFile($0.lastPathComponent) }
    }
}
