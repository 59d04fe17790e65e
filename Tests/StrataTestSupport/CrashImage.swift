/// Builds the files a power failure could leave: the durable bytes plus any subset of the unsynced writes, in any
/// order, each possibly torn at 512-byte sectors or 4 KiB pages, with the file size from before or after the
/// unsynced size changes.
package enum CrashImage {
    /// `count` crash images of a file whose last synced bytes are `durable` and whose unsynced operations are
    /// `pending`. The first two are always "nothing reached the disk" and "everything did".
    package static func images(
        durable: [UInt8], pending: [RecordingStorage.PendingOperation], count: Int,
        using random: inout some RandomNumberGenerator
    ) -> [[UInt8]] {
        var images = [apply([], to: durable, keepGrownSize: false), apply(pending.map { ($0, Tear.none) }, to: durable, keepGrownSize: true)]
        while images.count < count {
            var chosen: [(RecordingStorage.PendingOperation, Tear)] = []
            let keep = Double.random(in: 0...1, using: &random)
            for operation in pending.shuffled(using: &random) where Double.random(in: 0...1, using: &random) < keep {
                let tear: Tear
                switch Int.random(in: 0..<6, using: &random) {
                case 0: tear = .sectors(512)
                case 1: tear = .sectors(4096)
                default: tear = .none
                }
                chosen.append((operation, tear))
            }
            images.append(apply(chosen, to: durable, keepGrownSize: Bool.random(using: &random), random: &random))
        }
        return images
    }

    enum Tear {
        case none
        /// Each aligned chunk of this size reaches the disk or not, independently.
        case sectors(Int)
    }

    private static func apply(
        _ operations: [(RecordingStorage.PendingOperation, Tear)], to durable: [UInt8], keepGrownSize: Bool
    ) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return apply(operations, to: durable, keepGrownSize: keepGrownSize, random: &generator)
    }

    private static func apply(
        _ operations: [(RecordingStorage.PendingOperation, Tear)], to durable: [UInt8], keepGrownSize: Bool,
        random: inout some RandomNumberGenerator
    ) -> [UInt8] {
        var image = durable
        var size = durable.count
        for (operation, tear) in operations {
            switch operation {
            case let .truncate(newSize):
                size = Int(newSize)
                if image.count < size { image += [UInt8](repeating: 0, count: size - image.count) }
            case let .write(offset, bytes):
                let start = Int(offset)
                if image.count < start + bytes.count { image += [UInt8](repeating: 0, count: start + bytes.count - image.count) }
                if keepGrownSize { size = max(size, start + bytes.count) }
                var position = 0
                while position < bytes.count {
                    var chunkEnd = bytes.count
                    var applies = true
                    if case let .sectors(sector) = tear {
                        chunkEnd = min(bytes.count, (start + position) / sector * sector + sector - start)
                        applies = Bool.random(using: &random)
                    }
                    if applies { image.replaceSubrange((start + position)..<(start + chunkEnd), with: bytes[position..<chunkEnd]) }
                    position = chunkEnd
                }
            }
        }
        if image.count > size { image.removeLast(image.count - size) }
        return image
    }
}
