import Foundation
import StrataStorage

/// Content for pager tests without the table layer: a root node listing children whose bytes derive from a
/// seed, so any reader (another thread, another process, a reopened file) can check a version on its own.
///
/// Root payload: `magic`, `step` (how many transactions built it), `count`, then `count` × (`ref`, `seed`,
/// `length`), all `UInt64`.
package enum PatternTree {
    /// One child node.
    package struct Child: Equatable, Sendable {
        /// Where it is.
        package var ref: NodeRef
        /// What its bytes derive from.
        package var seed: UInt64
        /// Its payload length.
        package var length: Int

        /// A child record.
        package init(ref: NodeRef, seed: UInt64, length: Int) {
            self.ref = ref
            self.seed = seed
            self.length = length
        }
    }

    /// What a version holds.
    package struct State: Equatable, Sendable {
        /// Transactions that built it (0 for an empty store).
        package var step: UInt64
        /// The children, in root order.
        package var children: [Child]

        /// A state.
        package init(step: UInt64 = 0, children: [Child] = []) {
            self.step = step
            self.children = children
        }
    }

    /// A version whose content does not match what its root says.
    package struct Mismatch: Error, CustomStringConvertible {
        /// What differs.
        package var description: String

        /// A mismatch described by `description`.
        package init(description: String) { self.description = description }
    }

    static let magic: UInt64 = 0x3145_4552_5450_4150

    /// Reads and checks every node of the version `reader` sees.
    ///
    /// - Throws: `StrataError` from the store, `Mismatch` when a child's bytes are not its pattern.
    package static func read(_ reader: NodeReader) throws -> State {
        guard !reader.root.isNone else { return State() }
        let root = try reader.read(reader.root)
        guard root.count >= 24, root.loadUnaligned(fromByteOffset: 0, as: UInt64.self) == magic else {
            throw Mismatch(description: "root \(reader.root) is not a pattern root")
        }
        let step = root.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        let count = Int(root.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        guard root.count == 24 + count * 24 else { throw Mismatch(description: "root length \(root.count) ≠ \(count) children") }
        var state = State(step: step)
        for index in 0..<count {
            let ref = NodeRef(rawValue: root.loadUnaligned(fromByteOffset: 24 + index * 24, as: UInt64.self))
            let seed = root.loadUnaligned(fromByteOffset: 32 + index * 24, as: UInt64.self)
            let length = Int(root.loadUnaligned(fromByteOffset: 40 + index * 24, as: UInt64.self))
            let child = Child(ref: ref, seed: seed, length: length)
            try check(child, in: reader)
            state.children.append(child)
        }
        return state
    }

    /// Checks one child's bytes.
    ///
    /// - Throws: `Mismatch` or the store's error.
    package static func check(_ child: Child, in reader: NodeReader) throws {
        let payload = try reader.read(child.ref)
        guard payload.count == child.length else {
            throw Mismatch(description: "child \(child.ref) has \(payload.count) bytes, expected \(child.length)")
        }
        var expected = [UInt8](repeating: 0, count: child.length)
        expected.withUnsafeMutableBytes { fill($0, seed: child.seed) }
        let equal = expected.withUnsafeBytes { bytes in
            bytes.isEmpty || memcmp(bytes.baseAddress!, payload.baseAddress!, bytes.count) == 0
        }
        guard equal else {
            throw Mismatch(description: "child \(child.ref) (seed \(child.seed)) holds the wrong bytes")
        }
    }

    /// Reports the root and every child (the visitor `Store.verify` takes).
    package static func visit(_ reader: NodeReader, report: (NodeRef) -> Void) throws {
        guard !reader.root.isNone else { return }
        report(reader.root)
        for child in try read(reader).children { report(child.ref) }
    }

    /// Allocates a child of `length` bytes filled from `seed`.
    package static func writeChild(seed: UInt64, length: Int, in writer: NodeWriter) throws -> Child {
        let (ref, payload) = try writer.allocate(byteCount: length)
        fill(payload, seed: seed)
        return Child(ref: ref, seed: seed, length: length)
    }

    /// Replaces the root with one describing `state` (freeing the old root).
    package static func writeRoot(_ state: State, in writer: NodeWriter) throws {
        if !writer.root.isNone { writer.free(writer.root) }
        let (ref, payload) = try writer.allocate(byteCount: 24 + state.children.count * 24)
        payload.storeBytes(of: magic, toByteOffset: 0, as: UInt64.self)
        payload.storeBytes(of: state.step, toByteOffset: 8, as: UInt64.self)
        payload.storeBytes(of: UInt64(state.children.count), toByteOffset: 16, as: UInt64.self)
        for (index, child) in state.children.enumerated() {
            payload.storeBytes(of: child.ref.rawValue, toByteOffset: 24 + index * 24, as: UInt64.self)
            payload.storeBytes(of: child.seed, toByteOffset: 32 + index * 24, as: UInt64.self)
            payload.storeBytes(of: UInt64(child.length), toByteOffset: 40 + index * 24, as: UInt64.self)
        }
        writer.root = ref
    }

    /// One transaction's worth of random change: replaces, adds and removes a few children and writes a new
    /// root with `step` one higher. Returns the new state.
    package static func advance(_ writer: NodeWriter, random: inout some RandomNumberGenerator) throws -> State {
        var state = try read(writer)
        state.step += 1
        let replacements = Int.random(in: 0...2, using: &random)
        for _ in 0..<replacements where !state.children.isEmpty {
            let index = Int.random(in: 0..<state.children.count, using: &random)
            writer.free(state.children[index].ref)
            state.children[index] = try writeChild(
                seed: state.step << 8 | UInt64(index & 0xFF), length: randomLength(&random), in: writer)
        }
        if state.children.count < 24 && Bool.random(using: &random) {
            state.children.append(
                try writeChild(seed: state.step << 8 | 0xFF, length: randomLength(&random), in: writer))
        }
        if state.children.count > 4 && Int.random(in: 0..<4, using: &random) == 0 {
            let removed = state.children.remove(at: Int.random(in: 0..<state.children.count, using: &random))
            writer.free(removed.ref)
        }
        try writeRoot(state, in: writer)
        return state
    }

    /// A payload length from empty to three pages, mostly small.
    package static func randomLength(_ random: inout some RandomNumberGenerator) -> Int {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return 0
        case 1...6: return Int.random(in: 1...3000, using: &random)
        default: return Int.random(in: 3001...12_000, using: &random)
        }
    }

    /// Fills `buffer` with the pattern of `seed` (splitmix64 words).
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer, seed: UInt64) {
        guard let base = buffer.baseAddress else { return }
        var state = seed
        var offset = 0
        while offset < buffer.count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var word = state
            word = (word ^ (word >> 30)) &* 0xBF58_476D_1CE4_E5B9
            word = (word ^ (word >> 27)) &* 0x94D0_49BB_1331_11EB
            word ^= word >> 31
            if offset + 8 <= buffer.count {
                base.storeBytes(of: word.littleEndian, toByteOffset: offset, as: UInt64.self)
            } else {
                withUnsafeBytes(of: word.littleEndian) { bytes in
                    (base + offset).copyMemory(from: bytes.baseAddress!, byteCount: buffer.count - offset)
                }
            }
            offset += 8
        }
    }
}
