import Foundation
import Strata
import StrataStorage

/// Timing splits behind Strata's `model` rows, printed under the table (docs/BENCHMARKS.md, "Embedded objects and
/// sets"): what part of a query is the index, the scan or the set, measured as separate queries on the same file,
/// and what part of an insert is the address or the set, measured as inserts without them.
enum StrataModelSplits {
    /// Median milliseconds of each comparison query through the public API, on the open database.
    static func queries(on engine: StrataModelEngine, runs: Int) throws -> [String: Double] {
        let nickname = CensusData.queriedNicknames[0]
        let city = CensusData.queriedCities[0]
        let queries: [(id: String, predicate: String, argument: Any)] = [
            // The nickname query itself: counted from the nicknames' index (an indexed set).
            ("split-nickname-ms", "ANY nicknames == %@", nickname),
            // Every object's set read for its size only: the set's cost without the string comparisons.
            ("split-set-count-ms", "nicknames.@count == %@", CensusData.nicknamesPerPerson),
            // A plain string column compared in every object: the scan floor of the same table.
            ("split-name-scan-ms", "name == %@", "person-none"),
            // The city through the index and each address's owner (its backlink read in place).
            ("split-city-ms", "home.city == %@", city),
            // The street, unindexed: every person's embedded address read through its link.
            ("split-street-scan-ms", "home.street == %@", "none"),
        ]
        var splits: [String: Double] = [:]
        for query in queries {
            var times: [Double] = []
            for _ in 0..<runs {
                let started = DispatchTime.now().uptimeNanoseconds
                _ = try engine.count(query.predicate, query.argument)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            }
            splits[query.id] = times.median
        }
        return splits
    }

    /// Median milliseconds of reading the keys of the addresses in the first queried city from `Address.city`'s
    /// index through the storage engine, without finding their owners: the index's share of `home.city == %@`.
    /// Runs on the closed database's file.
    static func cityIndex(in directory: URL, runs: Int) throws -> [String: Double] {
        var options = StoreOptions()
        options.readOnly = true
        let store = try Store.open(path: directory.appendingPathComponent("census.strata").path, options: options)
        let read = try store.beginRead()
        defer { read.end() }
        let catalog = try Catalog(reader: read)
        guard let addresses = catalog.table(named: "Address") else { throw BenchmarkError("no Address table") }
        guard let city = addresses.column(named: "city"), let index = addresses.index(on: [city.key]) else {
            throw BenchmarkError("Address has no city index")
        }
        var times: [Double] = []
        var found = 0
        for _ in 0..<runs {
            let started = DispatchTime.now().uptimeNanoseconds
            found = try addresses.lookup(index.key, equal: [.string(CensusData.queriedCities[0])]).count
            times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
        }
        return ["split-city-index-ms": times.median ?? 0, "split-city-index-keys": Double(found)]
    }

    /// Microseconds per person of inserting `count` people in one transaction into a fresh file, three ways: with
    /// neither address nor nicknames, with the address only, with the nicknames only (M-insert has both).
    static func inserts(count: Int, in directory: URL) throws -> [String: Double] {
        let data = CensusData(count: count)
        let variants: [(id: String, home: Bool, nicknames: Bool)] = [
            ("split-insert-plain-us", false, false), ("split-insert-home-us", true, false),
            ("split-insert-nicknames-us", false, true),
        ]
        var splits: [String: Double] = [:]
        for variant in variants {
            let own = directory.appendingPathComponent(variant.id, isDirectory: true)
            try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
            var configuration = Configuration(schema: Census.self)
            configuration.fileURL = own.appendingPathComponent("census.strata")
            configuration.durability = .batched
            let database = try Database(configuration: configuration)
            let started = DispatchTime.now().uptimeNanoseconds
            try database.write {
                for i in 0..<count {
                    database.add(
                        Person(
                            id: i, name: data.name(i),
                            home: variant.home ? Address(street: data.street(i), city: data.city(i)) : nil,
                            nicknames: variant.nicknames ? data.nicknames(i) : []))
                }
            }
            splits[variant.id] = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e3 / Double(count)
            database.invalidate()
        }
        return splits
    }
}
