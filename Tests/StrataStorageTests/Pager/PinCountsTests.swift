@testable import StrataStorage
import XCTest

/// `PinCounts` counts readers per pin, forgets a pin with its last reader, and answers the oldest pin held, as the
/// dictionary it replaced did; checked against a dictionary over random runs of reads beginning and ending.
final class PinCountsTests: XCTestCase {
    func testCountsMatchADictionaryOverRandomReads() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var counts = PinCounts()
            var expected: [ReaderPin: Int] = [:]
            var held: [ReaderPin] = []
            for _ in 0..<60 {
                if held.isEmpty || Bool.random(using: &generator) {
                    let pin = ReaderPin(
                        version: UInt64.random(in: 1...8, using: &generator),
                        generation: UInt64.random(in: 0...2, using: &generator))
                    counts.add(pin)
                    expected[pin, default: 0] += 1
                    held.append(pin)
                } else {
                    let pin = held.remove(at: Int.random(in: 0..<held.count, using: &generator))
                    counts.remove(pin)
                    if let count = expected[pin] { expected[pin] = count > 1 ? count - 1 : nil }
                }
                XCTAssertEqual(counts.oldest, expected.keys.min())
                XCTAssertEqual(Set(counts.pins), Set(expected.keys))
                XCTAssertEqual(counts.pins.count, expected.count, "each pin once")
            }
        }
    }

    func testRemovingAPinNoReaderHoldsChangesNothing() {
        var counts = PinCounts()
        let pin = ReaderPin(version: 4, generation: 1)
        counts.add(pin)
        counts.remove(ReaderPin(version: 4, generation: 2))
        XCTAssertEqual(counts.pins, [pin])
        counts.add(pin)
        counts.remove(pin)
        XCTAssertEqual(counts.oldest, pin, "one reader left")
        counts.remove(pin)
        XCTAssertNil(counts.oldest)
        XCTAssertEqual(counts.pins, [])
    }
}
