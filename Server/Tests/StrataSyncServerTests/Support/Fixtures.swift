import Foundation
import JWTKit
import XCTest

@testable import StrataSyncServer

/// Schema files, rules, keys, tokens and changes the tests share.
enum Fixtures {
    /// The notes schema: every scalar type, a list, a set and a map, an owner field; a shared model without a
    /// primary key.
    static let notesV1 = """
        schema: Notes
        version: 1
        models:
          Note:
            primaryKey: id
            properties:
              id: string
              ownerId: string
              title: string
              count: int
              small: int16
              rating: double?
              done: bool
              due: date?
              blob: data?
              ref: uuid?
              price: decimal?
              oid: objectId?
              extra: any
              kind: { enum: [plain, todo] }
              tags: [string]
              labels: set<string>
              scores: map<int>
          Tag:
            properties:
              name: string
          Board:
            primaryKey: code
            properties:
              code: int
              title: string
        """

    /// Version 2: `Note.count` removed, `title` renamed to `heading`, `pinned` added, `Tag` removed, `Folder`
    /// added, `Note.labels` removed.
    static let notesV2 = """
        schema: Notes
        version: 2
        removedModels: [Tag]
        models:
          Note:
            primaryKey: id
            removed: [count, labels]
            properties:
              id: string
              ownerId: string
              heading: { type: string, renamedFrom: title }
              small: int16
              rating: double?
              done: bool
              due: date?
              blob: data?
              ref: uuid?
              price: decimal?
              oid: objectId?
              extra: any
              kind: { enum: [plain, todo] }
              pinned: bool
              tags: [string]
              scores: map<int>
          Folder:
            properties:
              name: string
          Board:
            primaryKey: code
            properties:
              code: int
              title: string
        """

    static let rules = """
        models:
          Note: { owner: ownerId }
          Tag: { shared: read, writers: [admin] }
          Board: { shared: readWrite }
        """

    static let key = Array("0123456789abcdef0123456789abcdef-test-key".utf8)

    /// A folder holding `texts` as schema files.
    static func schemaFolder(_ texts: [String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (index, text) in texts.enumerated() {
            try text.write(
                to: folder.appendingPathComponent("Notes.v\(index + 1).strata.yaml"), atomically: true, encoding: .utf8)
        }
        return folder.path
    }

    /// The schema of `texts` (each a version file).
    static func schema(_ texts: [String]) throws -> SyncSchema {
        try SchemaLoader.load(paths: [schemaFolder(texts)])
    }

    /// A token for `user`, signed with `key`, expiring `seconds` from now.
    static func token(user: String, key: [UInt8] = key, expiresIn seconds: TimeInterval = 600) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: key), digestAlgorithm: .sha256)
        return try await keys.sign(
            SyncClaims(sub: user, exp: ExpirationClaim(value: Date().addingTimeInterval(seconds))))
    }

    /// A clock reading for `client` at `wall` milliseconds.
    static func hlc(_ wall: Int64, _ client: String, counter: Int64 = 0) -> String {
        HybridTimestamp(wallMilliseconds: wall, counter: counter, clientID: client).description
    }
}
