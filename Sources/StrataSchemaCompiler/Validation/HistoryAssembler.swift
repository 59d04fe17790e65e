import StrataSchema

/// Puts validated files together into histories: one per `schema:` name, versions strictly increasing, each
/// consecutive pair diffed into a migration plan; and checks what only the whole set shows (duplicate versions,
/// file names that contradict `version:`, two schemas generating the same Swift type name).
struct HistoryAssembler {
    /// A file after loading and validation, and whether it had errors (then it is not diffed, so that one
    /// mistake does not cascade into "property gone" reports).
    struct ValidatedFile {
        var file: LoadedSchemaFile
        var hasErrors: Bool
    }

    private(set) var diagnostics: [Diagnostic] = []

    /// The histories of `files`, sorted by schema name.
    mutating func assemble(_ files: [ValidatedFile]) -> [SchemaHistory] {
        let groups = Dictionary(grouping: files) { $0.file.version.schemaName }
        var histories: [SchemaHistory] = []
        var newestFiles: [LoadedSchemaFile] = []
        for name in groups.keys.sorted() {
            guard let group = groups[name] else { continue }
            let ordered = orderedVersions(group)
            var plans: [MigrationPlan] = []
            for (previous, current) in zip(ordered, ordered.dropFirst())
            where !previous.hasErrors && !current.hasErrors {
                var diff = VersionDiff(previous: previous.file, current: current.file)
                plans.append(diff.plan())
                diagnostics += diff.diagnostics
            }
            if let newest = ordered.last { newestFiles.append(newest.file) }
            histories.append(SchemaHistory(name: name, versions: ordered.map(\.file.version), plans: plans))
        }
        checkTypeNames(newestFiles)
        checkShadowedTypeNames(newestFiles)
        return histories
    }

    /// The files of one schema sorted by version, duplicates reported and dropped.
    private mutating func orderedVersions(_ group: [ValidatedFile]) -> [ValidatedFile] {
        let sorted = group.sorted {
            ($0.file.version.version, $0.file.path) < ($1.file.version.version, $1.file.path)
        }
        var result: [ValidatedFile] = []
        for entry in sorted {
            checkFileName(of: entry.file)
            if let last = result.last, last.file.version.version == entry.file.version.version {
                let first = last.file.sourceMap[.topValue("version")]
                diagnostics.append(.error(
                    "version \(entry.file.version.version) of schema '\(entry.file.version.schemaName)' is declared "
                        + "twice, here and at \(first): each version is one file; give the newer file the next "
                        + "number (\(sorted.last.map { $0.file.version.version + 1 } ?? 1))",
                    at: entry.file.sourceMap[.topValue("version")]))
                continue
            }
            result.append(entry)
        }
        return result
    }

    /// A file named `Name.v3.strata.yaml` must say `version: 3`: a copied file that kept the old number would
    /// otherwise put the versions out of order.
    private mutating func checkFileName(of file: LoadedSchemaFile) {
        let fileName = file.path.split(separator: "/").last.map(String.init) ?? file.path
        for component in fileName.split(separator: ".") {
            guard let first = component.first, first == "v" || first == "V", component.count > 1,
                component.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(component.dropFirst()), number != file.version.version
            else { continue }
            diagnostics.append(.error(
                "the file name '\(fileName)' says version \(number), but 'version:' is \(file.version.version): "
                    + "versions must increase with each new file; make them agree",
                at: file.sourceMap[.topValue("version")]))
            return
        }
    }

    /// Warns where the newest version's schema or model names hide a Swift or Foundation type in the app's target
    /// (only the newest version's models become top-level classes; older ones are views inside `V<n>`).
    private mutating func checkShadowedTypeNames(_ files: [LoadedSchemaFile]) {
        for file in files {
            let version = file.version
            if let message = ShadowedTypeNames.warning(for: version.schemaName, isModel: false) {
                diagnostics.append(.warning(message, at: file.sourceMap[.topValue("schema")]))
            }
            for model in version.models {
                guard let message = ShadowedTypeNames.warning(for: model.name, isModel: true) else { continue }
                diagnostics.append(.warning(message, at: file.sourceMap[.model(model.name)]))
            }
        }
    }

    /// Two schemas compiled together must not generate the same type (schema type or model class).
    private mutating func checkTypeNames(_ files: [LoadedSchemaFile]) {
        var owners: [String: (schema: String, description: String, location: SourceLocation)] = [:]
        for file in files {
            let version = file.version
            var names = [(version.schemaName, "schema '\(version.schemaName)'", file.sourceMap[.topValue("schema")])]
            for model in version.models {
                names.append((model.name, "model '\(model.name)' of schema '\(version.schemaName)'",
                    file.sourceMap[.model(model.name)]))
            }
            for (name, description, location) in names {
                if let owner = owners[name] {
                    // Inside one schema, VersionValidator has already reported the clash in that file's terms.
                    if owner.schema == version.schemaName { continue }
                    diagnostics.append(.error(
                        "\(description) generates the Swift type '\(name)', as does \(owner.description) "
                            + "(\(owner.location)): schemas compiled into one target must not generate the same type "
                            + "name; rename one of them", at: location))
                } else {
                    owners[name] = (version.schemaName, description, location)
                }
            }
        }
    }
}
