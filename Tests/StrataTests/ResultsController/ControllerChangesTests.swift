import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// The change arithmetic of `ResultsController`, without a database: random sorted, sectioned, filtered
/// collections change at random; the delegate calls, applied the way a table view applies them, must turn the old
/// sections into the new ones exactly.
final class ControllerChangesTests: XCTestCase {
    /// One object of the simulated results: its key, the section it sorts into, its sort value and a version
    /// that changes whenever it is modified.
    struct Item: Equatable {
        var key: Int
        var section: Int
        var rank: Int
        var version: Int
        var hidden: Bool
    }

    typealias Snapshot = ControllerSnapshot<Int, Item>

    func testRandomChangesTurnOldSectionsIntoNewOnes() {
        var generator = SeededGenerator(seed: 0x5EC7_1045)
        for round in 0..<1_500 {
            var items = randomItems(count: generator.below(40), using: &generator)
            var snapshot = Self.snapshot(of: items)
            for step in 0..<4 {
                let next = mutate(items, using: &generator)
                let change = Self.resultsChange(from: items, to: next)
                let transition = ControllerTransition.applying(
                    deletions: change.deletions, insertions: change.insertions, modifications: change.modifications,
                    newKeys: Self.sorted(next).map(\.key), to: snapshot, entry: { Self.entry(Self.sorted(next)[$0]) })
                check(from: snapshot, to: transition, expected: Self.snapshot(of: next), "round \(round) step \(step)")
                items = next
                snapshot = transition.snapshot
            }
        }
    }

    func testAChangeSetThatDoesNotMatchIsRepairedByKey() {
        var generator = SeededGenerator(seed: 0xBAD_C4A9)
        for round in 0..<500 {
            let items = randomItems(count: 1 + generator.below(30), using: &generator)
            let next = mutate(items, using: &generator)
            let snapshot = Self.snapshot(of: items)
            // A change set that names every object as modified but leaves out the deletions and insertions: the new
            // keys give it away.
            let transition = ControllerTransition.applying(
                deletions: [], insertions: [], modifications: Array(next.indices),
                newKeys: Self.sorted(next).map(\.key), to: snapshot,
                entry: { Self.entry(Self.sorted(next)[$0]) })
            check(from: snapshot, to: transition, expected: Self.snapshot(of: next), "round \(round)")
        }
    }

    func testAnObjectSortedToTheSamePlaceIsAnUpdateNotAMove() {
        let items = [Item(key: 1, section: 0, rank: 1, version: 0, hidden: false),
                     Item(key: 2, section: 0, rank: 5, version: 0, hidden: false),
                     Item(key: 3, section: 0, rank: 9, version: 0, hidden: false)]
        var next = items
        next[1].rank = 6
        next[1].version = 1
        // The results report a sorted object whose value changed as a deletion plus an insertion.
        let transition = ControllerTransition.applying(
            deletions: [1], insertions: [1], modifications: [], newKeys: [1, 2, 3], to: Self.snapshot(of: items),
            entry: { Self.entry(Self.sorted(next)[$0]) })
        let changes = ControllerChanges(from: Self.snapshot(of: items), to: transition)
        XCTAssertEqual(changes.objects.map(\.type), [.update])
        XCTAssertEqual(changes.objects.first?.newPath, IndexPath(indexes: [0, 1]))
    }

    func testTheLastObjectOfASectionTakesTheSectionWithIt() {
        let items = [Item(key: 1, section: 0, rank: 1, version: 0, hidden: false),
                     Item(key: 2, section: 1, rank: 1, version: 0, hidden: false)]
        var next = items
        next[0].section = 1
        next[0].version = 1
        let old = Self.snapshot(of: items)
        let transition = ControllerTransition.applying(
            deletions: [0], insertions: [0], modifications: [], newKeys: [1, 2], to: old,
            entry: { Self.entry(Self.sorted(next)[$0]) })
        let changes = ControllerChanges(from: old, to: transition)
        XCTAssertEqual(changes.sections.map(\.type), [.delete])
        XCTAssertEqual(changes.sections.map(\.index), [0])
        XCTAssertEqual(changes.objects.map(\.type), [.move])
        XCTAssertEqual(changes.objects.first?.oldPath, IndexPath(indexes: [0, 0]))
        XCTAssertEqual(changes.objects.first?.newPath, IndexPath(indexes: [0, 0]))
    }

    func testReorderingsMoveAsFewObjectsAsPossiblePreferringTheChangedOnes() {
        // [a b c d] becomes [a c b d]: moving b or c is as short; the changed one moves.
        XCTAssertEqual(LongestIncreasingRun.members(of: [0, 2, 1, 3], preferringToMove: [false, true, false, false]),
                       [true, false, true, true])
        XCTAssertEqual(LongestIncreasingRun.members(of: [0, 2, 1, 3], preferringToMove: [false, false, true, false]),
                       [true, true, false, true])
        // A changed object is never kept at the price of moving more of the others.
        var generator = SeededGenerator(seed: 0x1_15)
        for _ in 0..<2_000 {
            let values = Array(0..<(1 + generator.below(30))).shuffled(using: &generator)
            let changed = values.map { _ in generator.below(3) == 0 }
            let preferring = LongestIncreasingRun.members(of: values, preferringToMove: changed)
            // The longest length by brute force (O(n²) dynamic programming).
            var lengths = [Int](repeating: 1, count: values.count)
            for index in values.indices {
                for earlier in 0..<index where values[earlier] < values[index] {
                    lengths[index] = max(lengths[index], lengths[earlier] + 1)
                }
            }
            XCTAssertEqual(preferring.filter { $0 }.count, lengths.max() ?? 0, "\(values)")
            let kept = values.indices.filter { preferring[$0] }.map { values[$0] }
            XCTAssertEqual(kept, kept.sorted(), "\(values)")
        }
    }

    // MARK: - The simulated results

    private func check(from old: Snapshot, to transition: ControllerTransition<Int, Item>, expected: Snapshot,
                       _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Self.describe(transition.snapshot.sections), Self.describe(expected.sections), context,
                       file: file, line: line)
        let changes = ControllerChanges(from: old, to: transition)
        let table = SectionedTableModel(sections: old.sections)
        changes.deliver(to: table)
        XCTAssertEqual(table.problems, [], context, file: file, line: line)
        XCTAssertEqual(Self.describe(table.sections.map { ResultsSection(name: $0.name, objects: $0.rows) }),
                       Self.describe(expected.sections), context, file: file, line: line)
        XCTAssertEqual(table.callOrder.first, "will", context, file: file, line: line)
        XCTAssertEqual(table.callOrder.last, "did", context, file: file, line: line)
        let firstObject = table.callOrder.firstIndex(of: "object") ?? table.callOrder.count
        let lastSection = table.callOrder.lastIndex(of: "section") ?? 0
        XCTAssertLessThan(lastSection, firstObject, "sections before objects: \(context)", file: file, line: line)
    }

    private static func describe(_ sections: [ResultsSection<Item>]) -> [String] {
        sections.map { section in
            section.name + ": " + section.objects.map { "\($0.key)v\($0.version)" }.joined(separator: " ")
        }
    }

    /// The results' order: by section, then rank, then key (a stable sort of key order).
    static func sorted(_ items: [Item]) -> [Item] {
        items.sorted { ($0.section, $0.rank, $0.key) < ($1.section, $1.rank, $1.key) }
    }

    static func entry(_ item: Item) -> ControllerEntry<Int, Item> {
        ControllerEntry(key: item.key, sectionName: "section \(item.section)", value: item.hidden ? nil : item)
    }

    static func snapshot(of items: [Item]) -> Snapshot {
        Snapshot(entries: sorted(items).map(entry))
    }

    /// The change set a sorted `Results` reports: objects gone or whose place-deciding values changed are
    /// deletions (old indices); new ones and those that moved are insertions; other modified ones are
    /// modifications (new indices).
    static func resultsChange(from old: [Item], to new: [Item]) -> (deletions: [Int], insertions: [Int], modifications: [Int]) {
        let oldSorted = sorted(old)
        let newSorted = sorted(new)
        let oldByKey = Dictionary(uniqueKeysWithValues: oldSorted.map { ($0.key, $0) })
        let newByKey = Dictionary(uniqueKeysWithValues: newSorted.map { ($0.key, $0) })
        func moved(_ key: Int) -> Bool {
            guard let before = oldByKey[key], let after = newByKey[key] else { return false }
            return before.section != after.section || before.rank != after.rank
        }
        let deletions = oldSorted.indices.filter { newByKey[oldSorted[$0].key] == nil || moved(oldSorted[$0].key) }
        let insertions = newSorted.indices.filter { oldByKey[newSorted[$0].key] == nil || moved(newSorted[$0].key) }
        let modifications = newSorted.indices.filter { index in
            let item = newSorted[index]
            guard let before = oldByKey[item.key], !moved(item.key) else { return false }
            return before != item
        }
        return (deletions, insertions, modifications)
    }

    private var nextKey = 1_000

    private func randomItems(count: Int, using generator: inout SeededGenerator) -> [Item] {
        (0..<count).map { key in
            Item(key: key, section: generator.below(4), rank: generator.below(10), version: 0, hidden: generator.below(5) == 0)
        }
    }

    /// Deletes, inserts and modifies a few objects: sections, ranks and visibility change too.
    private func mutate(_ items: [Item], using generator: inout SeededGenerator) -> [Item] {
        var items = items
        for _ in 0..<generator.below(6) {
            switch generator.below(5) {
            case 0 where !items.isEmpty:
                items.remove(at: generator.below(items.count))
            case 1:
                nextKey += 1
                items.append(Item(key: nextKey, section: generator.below(4), rank: generator.below(10), version: 0,
                                  hidden: generator.below(5) == 0))
            case 2 where !items.isEmpty:
                let index = generator.below(items.count)
                items[index].section = generator.below(4)
                items[index].version += 1
            case 3 where !items.isEmpty:
                let index = generator.below(items.count)
                items[index].hidden.toggle()
                items[index].version += 1
            default:
                guard !items.isEmpty else { break }
                let index = generator.below(items.count)
                if generator.below(2) == 0 { items[index].rank = generator.below(10) }
                items[index].version += 1
            }
        }
        return items
    }
}
