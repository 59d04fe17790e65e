import XCTest

import StrataStorage
import StrataTestSupport

/// The full-text tokenizer's rules: words of spaced scripts per UAX #29, folding as `[cd]` plus width,
/// overlapping pairs for scripts without spaces, emoji, positions and source ranges.
final class TextTokenizerTests: XCTestCase {
    private func terms(_ text: String) -> [String] { TextTokenizer.tokens(in: text).map(\.term) }

    func testLatinWordsAreFoldedByCaseDiacriticsAndWidth() {
        XCTAssertEqual(terms("Émile's CAFÉ, naïve—Straße!"), ["emile's", "cafe", "naive", "strasse"])
        XCTAssertEqual(terms("ＡＢＣ ｄｅｆ"), ["abc", "def"])
        XCTAssertEqual(terms("ΣΟΦΟΣ σοφός"), ["σοφοσ", "σοφοσ"])
        XCTAssertEqual(terms("Привет, Ёлка"), ["привет", "елка"])
    }

    func testUAX29JoinersBetweenLettersAndDigits() {
        XCTAssertEqual(terms("don't stop"), ["don't", "stop"])
        XCTAssertEqual(terms("U.S.A. 3.14 1,000,000 snake_case"), ["u.s.a", "3.14", "1,000,000", "snake_case"])
        XCTAssertEqual(terms("covid19 x-ray a/b key:value"), ["covid19", "x", "ray", "a", "b", "key", "value"])
        XCTAssertEqual(terms("end. start"), ["end", "start"])
        XCTAssertEqual(terms("3, 4"), ["3", "4"])
        XCTAssertEqual(terms("___ _x"), ["_x"])
    }

    func testOtherSpacedScriptsAndMarks() {
        XCTAssertEqual(terms("مرحبا بالعالم ١٢٣"), ["مرحبا", "بالعالم", "١٢٣"])
        XCTAssertEqual(terms("안녕하세요 세계"), ["안녕하세요", "세계"])
        XCTAssertEqual(terms("नमस्ते दुनिया").count, 2)
        XCTAssertEqual(terms("e\u{301}cole"), ["ecole"])
    }

    func testUnspacedRunsBecomeOverlappingPairsWithASingleTail() {
        let tokens = TextTokenizer.tokens(in: "我爱数据库")
        XCTAssertEqual(tokens.map(\.term), ["我爱", "爱数", "数据", "据库", "库"])
        XCTAssertEqual(tokens.map(\.position), [0, 1, 2, 3, 4])
        XCTAssertEqual(tokens.map(\.isRunTail), [false, false, false, false, true])
        XCTAssertEqual(terms("字"), ["字"])
        XCTAssertEqual(terms("ｶﾀｶﾅ"), ["カタ", "タカ", "カナ", "ナ"])
        XCTAssertEqual(terms("ภาษาไทย").count, "ภาษาไทย".count)
    }

    func testWithTrigramsUnspacedRunsBecomeOverlappingTrigramsWithAPairAndASingleTail() {
        let tokens = TextTokenizer.tokens(in: "我爱数据库 x 中文。字", trigrams: true)
        XCTAssertEqual(tokens.map(\.term), ["我爱数", "爱数据", "数据库", "据库", "库", "x", "中文", "文", "字"])
        XCTAssertEqual(tokens.map(\.position), Array(0..<9))
        XCTAssertEqual(tokens.map(\.isRunTail), [false, false, false, true, true, false, true, true, true])
        XCTAssertEqual(
            TextTokenizer.tokens(in: "ｶﾀｶﾅ", trigrams: true).map(\.term), ["カタカ", "タカナ", "カナ", "ナ"])
        // Words, and the positions of every token, are the same in both cuts.
        let text = "Swift の本 2024 données 数据库"
        let pairs = TextTokenizer.tokens(in: text), trigrams = TextTokenizer.tokens(in: text, trigrams: true)
        XCTAssertEqual(trigrams.map(\.position), pairs.map(\.position))
        XCTAssertEqual(trigrams.map(\.term)[0], "swift")
        XCTAssertEqual(trigrams.map(\.term)[3...4], ["2024", "donnees"])
    }

    func testMixedScriptsKeepPositionsInOrder() {
        let tokens = TextTokenizer.tokens(in: "Swift の本 2024")
        XCTAssertEqual(tokens.map(\.term), ["swift", "の本", "本", "2024"])
        XCTAssertEqual(tokens.map(\.position), [0, 1, 2, 3])
    }

    func testEmojiAreTokensAndPunctuationIsNot() {
        XCTAssertEqual(terms("I ❤️ 🍣 👩‍💻!!! ©"), ["i", "❤️", "🍣", "👩‍💻"])
        XCTAssertEqual(terms(" \n\t—…"), [])
    }

    func testRangesCoverTheSourceCharacters() {
        let text = "Héllo, 世界 wörld"
        let tokens = TextTokenizer.tokens(in: text)
        XCTAssertEqual(tokens.map { String(text[$0.range]) }, ["Héllo", "世界", "界", "wörld"])
    }

    /// A fold cache shared by many texts (as a bulk insert shares one) gives the terms of folding each word alone,
    /// also after it fills up and is emptied.
    func testFoldCacheGivesTheTermsOfFoldingEachWord() {
        let words = [
            "Émile", "CAFÉ", "naïve", "Straße", "ΣΟΦΟΣ", "σοφός", "Ёлка", "数据库", "東京タワー", "ｶﾀｶﾅ", "ＡＢＣ",
            "مرحبا", "🍣", "don't", "3,14", "Ǆemal", "ﬁne", "x-ray", "ภาษาไทย", "e\u{301}cole", "İstanbul", "plain",
        ]
        var random = SeededGenerator(seed: 7)
        var folds = TextTokenizer.FoldCache(limit: 50)
        for round in 0..<400 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                text += words.randomElement(using: &random)!
                // Unique words too, so the cache fills and is emptied on the way.
                if Int.random(in: 0..<3, using: &random) == 0 {
                    text += "é\(round)x\(Int.random(in: 0..<1_000_000, using: &random))"
                }
                text += ["", " ", ", ", ". "].randomElement(using: &random)!
            }
            let cached = TextTokenizer.tokens(in: text, folds: &folds)
            XCTAssertEqual(cached, TextTokenizer.tokens(in: text), text)
        }
    }

    /// Text of ASCII and the Latin letters below U+0250 is walked scalar by scalar: its tokens (terms, positions
    /// and ranges) are those the grapheme walk gives, which a Han character at the end forces for the same text.
    func testLatinTextWalkedByScalarsGivesTheTokensOfTheGraphemeWalk() {
        // Every scalar below U+0250 in turn (letters, digits, joiners, symbols, controls), among words, with CR LF
        // and joiners at the ends of words.
        let pieces = (0..<0x250).compactMap { Unicode.Scalar($0).map { String(Character($0)) } } + [
            "Émile", "naïve", "Straße", "ǅemal", "don't", "U.S.A", "3,14", "1.000,5", "a·b", "x_y", "_", "\r\n",
            "café.", "'", "plain", "ÆØÅ", "ĳ", "ſ",
        ]
        var random = SeededGenerator(seed: 0x250)
        for _ in 0..<600 {
            var text = ""
            for _ in 0..<Int.random(in: 0...10, using: &random) {
                text += pieces.randomElement(using: &random)!
                text += ["", " ", ", ", ". ", "\r\n", "-"].randomElement(using: &random)!
            }
            let longer = text + " 東"
            // Each token as its term, position, tail flag and the UTF-8 offsets of its range.
            func described(_ tokens: [TextToken], in source: String) -> [String] {
                tokens.map { token in
                    let lower = source.utf8.distance(from: source.startIndex, to: token.range.lowerBound)
                    let upper = source.utf8.distance(from: source.startIndex, to: token.range.upperBound)
                    return "\(token.term)@\(token.position)\(token.isRunTail ? "~" : "") \(lower)..<\(upper)"
                }
            }
            let graphemes = TextTokenizer.tokens(in: longer)
            XCTAssertEqual(
                described(TextTokenizer.tokens(in: text), in: text), described(Array(graphemes.dropLast()), in: longer),
                text.debugDescription)
            XCTAssertEqual(graphemes.last?.term, "東")
        }
    }

    /// The bulk insert's tokenizer (`simpleTerms`) gives the terms `tokens(in:trigrams:)` gives, term k at
    /// position k, for any text whose scalars are all below U+0250 or plain Han ideographs (runs cut into pairs, or
    /// trigrams), and refuses any other text.
    func testSimpleTermsAreTheTermsOfTheTokensOfLatinAndHanText() {
        let pieces = (0..<0x250).compactMap { Unicode.Scalar($0).map { String(Character($0)) } } + [
            "Émile", "naïve", "Straße", "ǅemal", "don't", "U.S.A", "3,14", "1.000,5", "a·b", "x_y", "_", "\r\n",
            "café.", "'", "plain", "ÆØÅ", "ĳ", "ſ", "CamelCase", "ABC", "Zz", "@[`{",
            "東", "東京", "中文字", "全文检索很好", "\u{3400}", "\u{9FFF}", "abc中文", "中文abc",
        ]
        let others = ["🍣", "Σ", "ɐ", "e\u{301}", "ｄ", "—", "ひらがな", "東\u{301}", "東\u{FE00}", "\u{F900}"]
        var random = SeededGenerator(seed: 0x51)
        var folds = TextTokenizer.FoldCache(limit: 40)
        var scratch = TextTokenizer.TermScratch()
        func isPlainHan(_ scalar: Unicode.Scalar) -> Bool {
            (0x4E00...0x9FFF).contains(scalar.value) || (0x3400...0x4DBF).contains(scalar.value)
        }
        for round in 0..<1_600 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                text += pieces.randomElement(using: &random)!
                text += ["", " ", ", ", ". ", "\r\n", "-", "'"].randomElement(using: &random)!
            }
            if round % 5 == 0 { text.insert(contentsOf: others.randomElement(using: &random)!, at: text.endIndex) }
            let trigrams = round % 2 == 1
            let isSimple = text.unicodeScalars.allSatisfy { $0.value < 0x250 || isPlainHan($0) }
            XCTAssertEqual(
                TextTokenizer.simpleTerms(in: text, into: &scratch, folds: &folds, trigrams: trigrams), isSimple,
                text)
            guard isSimple else { continue }
            var terms: [String] = []
            var start = 0
            for end in scratch.ends {
                terms.append(String(decoding: scratch.bytes[start..<Int(end)], as: UTF8.self))
                start = Int(end)
            }
            let tokens = TextTokenizer.tokens(in: text, trigrams: trigrams)
            XCTAssertEqual(terms, tokens.map(\.term), text.debugDescription)
            XCTAssertEqual(Array(tokens.indices), tokens.map(\.position), text.debugDescription)
        }
    }
}
