// The protocol's requests, answers and values (`SyncChange`, `SyncValue`, `UploadRequest`, ...) are the root
// package's `StrataSyncWire`, which the Strata client uses too; the server's API is made of them, so it re-exports
// them for its callers and tests.
@_exported import StrataSyncWire
