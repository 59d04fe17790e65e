import Foundation
import StrataStorage

/// A ``FullTextQuery`` answered from a table's full-text index: the matching objects, and their BM25 scores.
///
/// Each clause reads the postings of its terms (a prefix reads every term that starts with it), keeps the objects
/// where the terms follow each other, and counts the occurrences; required clauses intersect, excluded ones
/// subtract. The score is Okapi BM25 (k1 = 1.2, b = 0.75) summed over the required clauses, a clause counting as
/// one term: its document frequency is the number of objects where it occurs, its frequency in an object the
/// number of places it occurs.
struct FullTextIndexSearch {
    let table: Table
    let index: IndexKey
    let query: FullTextQuery

    /// BM25's term-frequency saturation.
    static let k1 = 1.2
    /// BM25's length normalization.
    static let b = 0.75

    /// One clause's occurrences in one object.
    private struct Occurrence {
        var count: Int
        var documentLength: Int
    }

    /// The keys of the objects that match, in ascending order.
    func keys() throws -> [ObjectKey] {
        try matches().map(\.key).sorted()
    }

    /// The objects that match with their scores, best first (ties in key order).
    func ranked() throws -> [(key: ObjectKey, score: Double)] {
        let (documents, averageLength) = try table.fullTextStatistics(index)
        let scored = try matches().map { match -> (key: ObjectKey, score: Double) in
            var score = 0.0
            for (frequency, occurrence) in zip(match.frequencies, match.occurrences) {
                score += Self.score(
                    frequency: frequency, documents: documents, occurrences: occurrence.count,
                    length: occurrence.documentLength, averageLength: averageLength)
            }
            return (match.key, score)
        }
        return scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.key < $1.key }
    }

    /// One clause's BM25 contribution: `frequency` objects hold it, `occurrences` times in this one, whose text has
    /// `length` tokens.
    static func score(frequency: Int, documents: Int, occurrences: Int, length: Int, averageLength: Double) -> Double {
        let n = Double(Swift.max(documents, frequency)), df = Double(frequency), tf = Double(occurrences)
        let idf = log((n - df + 0.5) / (df + 0.5) + 1)
        let norm = averageLength > 0 ? Double(length) / averageLength : 1
        return idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * norm))
    }

    /// The matching objects, each with every required clause's document frequency and occurrence.
    private func matches() throws -> [(key: ObjectKey, frequencies: [Int], occurrences: [Occurrence])] {
        guard !query.matchesNothing else { return [] }
        var perClause: [[ObjectKey: Occurrence]] = []
        for clause in query.required {
            let found = try occurrences(of: clause)
            if found.isEmpty { return [] }
            perClause.append(found)
        }
        var excluded = Set<ObjectKey>()
        for clause in query.excluded { excluded.formUnion(try occurrences(of: clause).keys) }
        let smallest = perClause.indices.min { perClause[$0].count < perClause[$1].count } ?? 0
        var result: [(key: ObjectKey, frequencies: [Int], occurrences: [Occurrence])] = []
        let frequencies = perClause.map(\.count)
        for key in perClause[smallest].keys where !excluded.contains(key) {
            var found: [Occurrence] = []
            for clause in perClause {
                guard let occurrence = clause[key] else { break }
                found.append(occurrence)
            }
            if found.count == perClause.count { result.append((key, frequencies, found)) }
        }
        return result
    }

    /// The objects where `clause` occurs, with how often.
    private func occurrences(of clause: FullTextQuery.Clause) throws -> [ObjectKey: Occurrence] {
        guard let first = clause.terms.first else { return [:] }
        let firstPostings = try table.fullTextPostings(index, term: first.text, prefix: first.isPrefix)
        guard clause.terms.count > 1 else {
            var result: [ObjectKey: Occurrence] = [:]
            result.reserveCapacity(firstPostings.count)
            for posting in firstPostings {
                result[posting.key] = Occurrence(count: posting.positions.count, documentLength: posting.documentLength)
            }
            return result
        }
        var candidates = Dictionary(firstPostings.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var following: [[ObjectKey: Set<Int>]] = []
        for term in clause.terms.dropFirst() {
            var positions: [ObjectKey: Set<Int>] = [:]
            for posting in try table.fullTextPostings(index, term: term.text, prefix: term.isPrefix)
            where candidates[posting.key] != nil {
                positions[posting.key] = Set(posting.positions)
            }
            candidates = candidates.filter { positions[$0.key] != nil }
            if candidates.isEmpty { return [:] }
            following.append(positions)
        }
        var result: [ObjectKey: Occurrence] = [:]
        for (key, posting) in candidates {
            let starts = posting.positions.filter { start in
                following.enumerated().allSatisfy { offset, positions in
                    positions[key]?.contains(start + offset + 1) ?? false
                }
            }
            if !starts.isEmpty {
                result[key] = Occurrence(count: starts.count, documentLength: posting.documentLength)
            }
        }
        return result
    }
}
