/// The server's error body, `{"error": {"message": "..."}}` (Hummingbird's error answer). The protocol's own types
/// (``SyncChange``, the upload and download bodies) are in `StrataSyncWire`, which the server shares.
struct ServerErrorBody: Decodable {
    struct Detail: Decodable { var message: String }
    var error: Detail
}
