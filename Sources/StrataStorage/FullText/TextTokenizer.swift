import Foundation

/// Cuts text into the folded tokens of the full-text index, over all of Unicode.
///
/// The rules (docs/QUERIES.md, "Full-text search", describes them for users):
/// - **Spaced scripts** (Latin, Greek, Cyrillic, Arabic, Hebrew, Hangul, Devanagari, ...) are cut into words by the
///   word rules of Unicode text segmentation (UAX #29) for letters, digits and marks: letters and digits run
///   together (`covid19` is one word), `_` joins them, `'` `’` `.` join two letters (`don't`, `U.S.A`) or two
///   digits, `,` `;` join two digits (`3,14`, `1.000,5`), `·` joins two letters. Everything else separates
///   words: spaces, other punctuation (`-`, `/`, `:`), symbols. Combining marks stay with their letter because the
///   tokenizer walks grapheme clusters.
/// - **Unspaced scripts** (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar): a run of such characters becomes
///   one token per character, each the pair of that character and the next (overlapping bigrams), the last one
///   the single character (the run's tail). A query run then matches exactly where it is a substring of a
///   document run: its pairs at consecutive positions, and its tail as the first character of the next token.
///   With `trigrams` (the indexes made since `IndexSpec.isTrigrams`), each token is the character and the two
///   after it (overlapping trigrams), the run's last two tokens its last pair and its last character (both run
///   tails): a query run of three characters is then one term, and a longer one its trigrams at consecutive
///   positions. Positions are the same either way (one per character).
/// - **Emoji** are one token each.
/// - **Folding**: each token is folded as `[cd]` folds (Unicode case folding and diacritics removed, over all of
///   Unicode) and by width (full-width Latin and half-width Katakana become their usual forms). No stemming.
/// - **Positions** count tokens: consecutive words, and consecutive characters of an unspaced run, are at
///   consecutive positions, which is what phrases use.
package enum TextTokenizer {
    /// Folded forms of words already seen: Foundation's folding of a word that is not ASCII costs microseconds,
    /// and a bulk insert meets the same words again and again. Bounded: emptied when it holds ``limit`` words.
    package struct FoldCache {
        fileprivate var folded: [String: String] = [:]
        /// The most words held.
        fileprivate let limit: Int

        /// An empty cache that holds at most `limit` words.
        package init(limit: Int = 1 << 16) { self.limit = Swift.max(limit, 1) }
    }

    /// The tokens of `text`, in order; runs of unspaced scripts cut into pairs, or with `trigrams` into trigrams.
    package static func tokens(in text: String, trigrams: Bool = false) -> [TextToken] {
        var folds = FoldCache()
        return tokens(in: text, folds: &folds, trigrams: trigrams)
    }

    /// The tokens of `text`, in order, the folded forms of words looked up in (and added to) `folds`; runs of
    /// unspaced scripts cut into pairs, or with `trigrams` into trigrams.
    ///
    /// Text whose scalars are all below ``simpleScalarLimit`` (ASCII and the Latin letters of Latin-1 and Latin
    /// Extended-A and B) is walked scalar by scalar: no scalar there extends a grapheme cluster (combining marks
    /// start at U+0300), so each scalar is a character of its own and the grapheme walk would find the same
    /// characters, at a multiple of the cost. Other text is walked grapheme by grapheme.
    package static func tokens(in text: String, folds: inout FoldCache, trigrams: Bool = false) -> [TextToken] {
        var starts: [String.Index] = []
        var classes: [TextCharacterClass] = []
        let scalars = text.unicodeScalars
        var isSimple = true
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let value = scalars[index].value
            guard value < simpleScalarLimit else {
                isSimple = false
                break
            }
            starts.append(index)
            classes.append(simpleClasses[Int(value)])
            index = scalars.index(after: index)
        }
        if !isSimple {
            starts.removeAll(keepingCapacity: true)
            classes.removeAll(keepingCapacity: true)
            var index = text.startIndex
            while index < text.endIndex {
                starts.append(index)
                classes.append(TextCharacterClass(text[index]))
                index = text.index(after: index)
            }
        }
        starts.append(text.endIndex)
        return tokens(in: text, starts: starts, classes: classes, folds: &folds, gram: trigrams ? 3 : 2)
    }

    /// Space kept between calls of ``simpleTerms(in:into:folds:trigrams:)``, which also hands its terms over in it.
    package struct TermScratch {
        fileprivate var classes: [TextCharacterClass] = []
        /// Per scalar: its UTF-8 offset (then the text's end); like `classes`, space written by index, longer than the
        /// text's bytes.
        fileprivate var offsets: [Int32] = []
        /// The folded terms' UTF-8 bytes, one after the other.
        package fileprivate(set) var bytes: [UInt8] = []
        /// Per term: where its bytes end in ``bytes`` (term `k`'s are `ends[k - 1]..<ends[k]`, from 0 for the
        /// first); term `k` is at position `k`.
        package fileprivate(set) var ends: [Int32] = []

        /// Empty space.
        package init() {}
    }

    /// The folded terms of `text` in order, as the UTF-8 bytes of `scratch` (its previous terms dropped), when
    /// every scalar of `text` is below ``simpleScalarLimit`` or a plain Han ideograph (``isPlainHan(_:)``); `false`
    /// for other text (``tokens(in:folds:trigrams:)`` then cuts it). The same terms, at the same positions, as
    /// ``tokens(in:folds:trigrams:)`` gives, without a `String`, an index or a token per word: an ASCII word is
    /// lowercased byte by byte straight into `scratch`, any other word folded through `folds`, and a run of Han
    /// ideographs (which folding leaves as they are) cut into its pairs, or with `trigrams` its trigrams, copied
    /// from the text's own bytes. What a bulk insert of Latin or Chinese text takes.
    ///
    /// No scalar this accepts extends a grapheme cluster (combining marks, joiners and variation selectors are
    /// all above U+0250 and are not Han), so each scalar is a character of its own, as the grapheme walk would
    /// find.
    package static func simpleTerms(
        in text: String, into scratch: inout TermScratch, folds: inout FoldCache, trigrams: Bool = false
    ) -> Bool {
        // The scratch arrays worked on as locals (moved out, so appending to them copies nothing), and the
        // static tables read once rather than behind a lazy initialization check per scalar.
        var classes: [TextCharacterClass] = [], offsets: [Int32] = [], bytes: [UInt8] = [], ends: [Int32] = []
        swap(&classes, &scratch.classes)
        swap(&offsets, &scratch.offsets)
        swap(&bytes, &scratch.bytes)
        swap(&ends, &scratch.ends)
        defer {
            swap(&classes, &scratch.classes)
            swap(&offsets, &scratch.offsets)
            swap(&bytes, &scratch.bytes)
            swap(&ends, &scratch.ends)
        }
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        let simpleClasses = Self.simpleClasses, takesHan = Self.hanIsUnspaced
        var text = text
        return text.withUTF8 { utf8 in
            // The scalars' classes and offsets, written by index into space kept from text to text (at most one
            // scalar per byte, and the text's end): one or two bytes each below U+0250 (leads C2 to C9), three for
            // a Han ideograph (leads E3 to E9).
            if classes.count < utf8.count { classes = Array(repeating: .separator, count: utf8.count * 2) }
            if offsets.count <= utf8.count { offsets = Array(repeating: 0, count: utf8.count * 2 + 1) }
            bytes.reserveCapacity(utf8.count)
            return classes.withUnsafeMutableBufferPointer { allClasses in
                offsets.withUnsafeMutableBufferPointer { offsets in
                    var scalars = 0
                    var offset = 0
                    while offset < utf8.count {
                        let byte = utf8[offset]
                        var value = UInt32(byte), length = 1
                        if byte >= 0xE3, byte <= 0xE9 {
                            guard takesHan, offset + 2 < utf8.count else { return false }
                            value = (UInt32(byte & 0x0F) << 12) | (UInt32(utf8[offset + 1] & 0x3F) << 6)
                                | UInt32(utf8[offset + 2] & 0x3F)
                            guard isPlainHan(value) else { return false }
                            allClasses[scalars] = .unspaced
                            offsets[scalars] = Int32(truncatingIfNeeded: offset)
                            scalars += 1
                            offset += 3
                            continue
                        }
                        if byte >= 0x80 {
                            guard byte >= 0xC2, byte <= 0xC9, offset + 1 < utf8.count else { return false }
                            value = (UInt32(byte & 0x1F) << 6) | UInt32(utf8[offset + 1] & 0x3F)
                            guard value < simpleScalarLimit else { return false }
                            length = 2
                        }
                        let characterClass = simpleClasses[Int(value)]
                        guard characterClass != .unspaced, characterClass != .emoji else { return false }
                        allClasses[scalars] = characterClass
                        offsets[scalars] = Int32(truncatingIfNeeded: offset)
                        scalars += 1
                        offset += length
                    }
                    offsets[scalars] = Int32(truncatingIfNeeded: utf8.count)
                    let classes = UnsafeBufferPointer(rebasing: allClasses[0..<scalars])
                    var i = 0
                    let gram = trigrams ? 3 : 2
                    while i < classes.count {
                        if classes[i] == .unspaced {
                            // A run of Han ideographs: one term per character, it and the next `gram - 1` (fewer at
                            // the run's end), their bytes contiguous in the text.
                            var end = i + 1
                            while end < classes.count, classes[end] == .unspaced { end += 1 }
                            for k in i..<end {
                                let upper = Int(offsets[Swift.min(k + gram, end)])
                                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[Int(offsets[k])..<upper]))
                                ends.append(Int32(truncatingIfNeeded: bytes.count))
                            }
                            i = end
                            continue
                        }
                        guard classes[i].isWordPart else {
                            i += 1
                            continue
                        }
                        let end = wordEnd(from: i, classes: classes)
                        defer { i = end }
                        guard classes[i..<end].contains(where: { $0 != .connector }) else { continue }
                        let lower = Int(offsets[i]), upper = Int(offsets[end])
                        let word = UnsafeBufferPointer(rebasing: utf8[lower..<upper])
                        if word.allSatisfy({ $0 < 0x80 }) {
                            // ASCII folds to its lowercase: copied whole, then lowered in place.
                            let first = bytes.count
                            bytes.append(contentsOf: word)
                            bytes.withUnsafeMutableBufferPointer { bytes in
                                for index in first..<bytes.count where bytes[index] &- 0x41 < 26 {
                                    bytes[index] |= 0x20
                                }
                            }
                        } else {
                            let term = fold(String(decoding: word, as: UTF8.self), &folds)
                            guard !term.isEmpty else { continue }
                            bytes.append(contentsOf: term.utf8)
                        }
                        ends.append(Int32(truncatingIfNeeded: bytes.count))
                    }
                    return true
                }
            }
        }
    }

    /// Whether ``TextCharacterClass`` classes every plain Han ideograph (``isPlainHan(_:)``) as unspaced, as
    /// ``simpleTerms(in:into:folds:trigrams:)`` takes them (checked once against this runtime's Unicode data).
    private static let hanIsUnspaced: Bool = [0x3400...0x4DBF, 0x4E00...0x9FFF].allSatisfy { range in
        range.allSatisfy { value in
            Unicode.Scalar(UInt32(value)).map { TextCharacterClass(Character($0)) == .unspaced } ?? false
        }
    }

    /// Whether `value` is a scalar of the CJK Unified Ideographs blocks (the main one and extension A).
    private static func isPlainHan(_ value: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(value) || (0x3400...0x4DBF).contains(value)
    }

    /// The scalars below this value are each a character of their own and are classed by ``simpleClasses``.
    private static let simpleScalarLimit: UInt32 = 0x250
    /// The class of each scalar below ``simpleScalarLimit``, as ``TextCharacterClass`` classes it alone.
    private static let simpleClasses: [TextCharacterClass] = (0..<simpleScalarLimit).map { value in
        Unicode.Scalar(value).map { TextCharacterClass(Character($0)) } ?? .separator
    }

    /// The tokens of `text` cut into characters starting at `starts` (the last one its end) of `classes`, runs of
    /// unspaced scripts into overlapping grams of `gram` characters (2 or 3).
    private static func tokens(
        in text: String, starts: [String.Index], classes: [TextCharacterClass], folds: inout FoldCache, gram: Int
    ) -> [TextToken] {
        var tokens: [TextToken] = []
        var position = 0
        var i = 0
        while i < classes.count {
            switch classes[i] {
            case .letter, .digit, .connector:
                let end = wordEnd(from: i, classes: classes)
                if classes[i..<end].contains(where: { $0 != .connector }) {
                    let term = fold(String(text[starts[i]..<starts[end]]), &folds)
                    if !term.isEmpty {
                        tokens.append(TextToken(term: term, position: position, range: starts[i]..<starts[end],
                                                isRunTail: false))
                        position += 1
                    }
                }
                i = end
            case .unspaced:
                var end = i + 1
                while end < classes.count, classes[end] == .unspaced { end += 1 }
                appendRun(Array(text[starts[i]..<starts[end]]), starts: starts, from: i, gram: gram,
                          position: &position, to: &tokens)
                i = end
            case .emoji:
                tokens.append(TextToken(term: fold(String(text[starts[i]..<starts[i + 1]])), position: position,
                                        range: starts[i]..<starts[i + 1], isRunTail: false))
                position += 1
                i += 1
            case .midNumberOrLetter, .midLetter, .midNumber, .separator:
                i += 1
            }
        }
        return tokens
    }

    /// `text` folded as the index folds terms: `[cd]` folding, then width folding.
    package static func fold(_ text: String) -> String {
        UnicodeFolding.fold(text, caseInsensitive: true, diacriticInsensitive: true, widthInsensitive: true)
    }

    /// `word` folded as ``fold(_:)`` folds it, through `folds` when it is not ASCII.
    private static func fold(_ word: String, _ folds: inout FoldCache) -> String {
        if word.utf8.allSatisfy({ $0 < 0x80 }) { return fold(word) }
        if let folded = folds.folded[word] { return folded }
        let folded = fold(word)
        if folds.folded.count >= folds.limit { folds.folded.removeAll(keepingCapacity: true) }
        folds.folded[word] = folded
        return folded
    }

    /// The end of the word that starts at `start` (UAX #29 rules WB5 to WB13b for letters, digits and connectors).
    @inline(__always)
    private static func wordEnd<Classes: RandomAccessCollection>(
        from start: Int, classes: Classes
    ) -> Int where Classes.Element == TextCharacterClass, Classes.Index == Int {
        var end = start + 1
        while end < classes.count {
            let current = classes[end]
            if current.isWordPart {
                end += 1
                continue
            }
            guard end + 1 < classes.count else { break }
            let before = classes[end - 1], after = classes[end + 1]
            let joinsLetters = before == .letter && after == .letter
                && (current == .midLetter || current == .midNumberOrLetter)
            let joinsDigits = before == .digit && after == .digit
                && (current == .midNumber || current == .midNumberOrLetter)
            guard joinsLetters || joinsDigits else { break }
            end += 2
        }
        return end
    }

    /// The tokens of one run of an unspaced script: one per character, the character and the `gram - 1` after it
    /// (overlapping grams), fewer at the run's end (its tails: the last pair of a run cut into trigrams, and the
    /// last character alone).
    private static func appendRun(
        _ run: [Character], starts: [String.Index], from first: Int, gram: Int, position: inout Int,
        to tokens: inout [TextToken]
    ) {
        let folded = foldEach(run)
        for k in folded.indices {
            let length = Swift.min(gram, folded.count - k)
            let term = folded[k..<k + length].joined()
            let upper = starts[first + k + length]
            tokens.append(TextToken(term: term, position: position, range: starts[first + k]..<upper,
                                    isRunTail: length < gram))
            position += 1
        }
    }

    /// Each character folded: the run at once when folding keeps one character per character, else one by one.
    private static func foldEach(_ run: [Character]) -> [String] {
        // Han ideographs of the unified blocks have no case, no diacritics, no width variant and no
        // decomposition: folding leaves them as they are.
        if run.allSatisfy(isPlainHan) { return run.map { String($0) } }
        let whole = Array(fold(String(run)))
        if whole.count == run.count { return whole.map { String($0) } }
        return run.map { character in
            let folded = fold(String(character))
            return folded.isEmpty ? String(character) : folded
        }
    }

    /// Whether `character` is one scalar of the CJK Unified Ideographs blocks (the main one and extension A).
    private static func isPlainHan(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex else {
            return false
        }
        return isPlainHan(first.value)
    }
}
