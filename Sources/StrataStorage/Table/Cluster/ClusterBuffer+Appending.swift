/// Encoding a variable-size or 16-byte column kept as its stored block with rows appended after it
/// (`ColumnBuffer.stored`): the block's rows are written from its bytes, without decoding them.
///
/// An insert at the end of the last cluster (every insert without an explicit key, the sync outbox's entries)
/// used to decode each string column of that cluster, an allocation per row, only to encode the same bytes again
/// at commit. The bytes written are those a decode and a fresh encoding write (the packed-ends layout of
/// docs/FILE-FORMAT.md, "Column blocks"), so readers cannot tell them apart; `ClusterAppendTests` checks that over
/// random appends.
extension ClusterBuffer {
    /// Writes `column`, whose rows are `stored`'s followed by its appended rows, moving long appended values to
    /// their own nodes first as the general encoding does.
    ///
    /// - Throws: what allocating a long value's node throws.
    static func writeAppended(
        _ column: ColumnBuffer, stored: ColumnBlock, into out: inout ByteWriter, writer: NodeWriter
    ) throws {
        let storedRows = stored.count
        if column.blockEncoding == .variable {
            let appended = column.appendedRows.blobs
            for index in appended.indices
            where appended[index].external.isNone && appended[index].length > ClusterBuffer.externalThreshold {
                let ref = try ByteWriter(bytes: appended[index].bytes).store(in: writer)
                column.replaceAppended(at: index, with: Blob(external: ref, length: appended[index].length))
            }
        }
        let (blobs, nulls) = column.appendedRows
        let count = storedRows + blobs.count
        let tag = column.blockEncoding == .variable ? BlockEncoding.packedEndsTag : column.blockEncoding.rawValue
        out.u8(tag)
        out.u8(column.hasNullBitmap ? 1 : 0)
        out.u16(0)
        out.u32(UInt32(count))
        if column.hasNullBitmap {
            writeBits((0..<count).lazy.map { $0 < storedRows ? stored.isNull($0) : nulls[$0 - storedRows] }, count: count,
                      into: &out)
        }
        if column.blockEncoding == .fixed16 {
            out.raw(stored.data)
            for blob in blobs {
                blob.withBytes { out.raw(UnsafeRawBufferPointer(rebasing: $0.prefix(16))) }
                if blob.length < 16 { out.zeros(16 - blob.length) }
            }
            return
        }
        // `.variable`: which rows are external, the packed end offsets, then the byte area: the stored rows' area
        // as it is (their ends start at 0), the appended values after it.
        writeBits(
            (0..<count).lazy.map { row in
                row < storedRows ? stored.isExternal(row) : !blobs[row - storedRows].external.isNone
            }, count: count, into: &out)
        var ends: [Int64] = []
        ends.reserveCapacity(count)
        for row in 0..<storedRows { ends.append(Int64(stored.end(row))) }
        var end = Int64(stored.data.count)
        for blob in blobs {
            end += blob.areaByteCount
            ends.append(end)
        }
        writePackedEnds(ends, into: &out)
        out.raw(stored.data)
        for blob in blobs { writeAreaValue(blob, into: &out) }
    }
}
