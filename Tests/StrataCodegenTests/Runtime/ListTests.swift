import XCTest
@_spi(StrataGenerated) import Strata

/// `List` behaves the same unmanaged (array-backed) and managed (through its accessor).
final class ListTests: XCTestCase {
    /// An unmanaged list and a managed one holding `elements`.
    private func lists(_ elements: [String]) -> [(String, List<String>)] {
        let owner = DictionaryAccessor([0: .list(elements.map(\.persistedValue))])
        return [("unmanaged", List(elements)), ("managed", owner.list(at: 0, of: String.self))]
    }

    func testAppendInsertAndRemoveKeepOrder() {
        for (kind, list) in lists(["b"]) {
            list.append("c")
            list.insert("a", at: 0)
            list.append(contentsOf: ["d", "e"])
            XCTAssertEqual(list.remove(at: 4), "e", kind)
            XCTAssertEqual(Array(list), ["a", "b", "c", "d"], kind)
        }
    }

    func testMoveSwapAndReplace() {
        for (kind, list) in lists(["a", "b", "c", "d"]) {
            list.move(from: 0, to: 3)
            XCTAssertEqual(Array(list), ["b", "c", "d", "a"], kind)
            list.swap(index1: 0, 3)
            XCTAssertEqual(Array(list), ["a", "c", "d", "b"], kind)
            list.replace(index: 1, object: "x")
            list[2] = "y"
            XCTAssertEqual(Array(list), ["a", "x", "y", "b"], kind)
            list.replaceSubrange(1..<3, with: ["p", "q", "r"])
            XCTAssertEqual(Array(list), ["a", "p", "q", "r", "b"], kind)
        }
    }

    func testRemoveAllAndIndexOf() {
        for (kind, list) in lists(["a", "b", "a"]) {
            XCTAssertEqual(list.index(of: "a"), 0, kind)
            XCTAssertEqual(list.index(of: "b"), 1, kind)
            XCTAssertNil(list.index(of: "z"), kind)
            list.removeAll()
            XCTAssertTrue(list.isEmpty, kind)
        }
    }

    func testReplacingAListWithItselfKeepsItsElements() {
        for (kind, list) in lists(["a", "b"]) {
            list.replaceSubrange(0..<list.count, with: list)
            XCTAssertEqual(Array(list), ["a", "b"], kind)
            list.append(contentsOf: list)
            XCTAssertEqual(Array(list), ["a", "b", "a", "b"], kind)
        }
    }

    func testIndexOfAnObjectMatchesTheSameInstance() {
        let first = Order(total: 1)
        let second = Order(total: 1)
        let orders = List([first, second])
        XCTAssertEqual(orders.index(of: second), 1)
        XCTAssertNil(orders.index(of: Order(total: 1)))
    }

    func testDescriptionListsTheElements() {
        XCTAssertEqual(List(["a", "b"]).description, "List<String>[\"a\", \"b\"]")
    }
}
