import Hummingbird
import Strata

/// The responses the studio's API sends: JSON documents, errors as JSON, downloads.
enum StudioResponse {
    /// `value` as a JSON response.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        var text = JSONText()
        text.append(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: text.bytes)))
    }

    /// `error` as `{"error": message, "predicate": text, "offset": n}` with its status.
    static func error(_ error: Error) -> Response {
        let studio = StudioError.wrapping(error)
        var members: [(key: String, value: JSONValue)] = [("error", .string(studio.message))]
        if let predicate = studio.predicate {
            members.append(("predicate", .string(predicate.text)))
            members.append(("offset", .number(String(predicate.offset))))
        }
        return json(.object(members), status: HTTPResponse.Status(code: studio.status))
    }

    /// A text resource (the page, its style sheet, its script).
    static func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: type, .cacheControl: "no-store",
                .init("Content-Security-Policy")!: "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `bytes` as a file to save, named `name`.
    static func download(_ bytes: [UInt8], name: String, type: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: type, .cacheControl: "no-store",
                .init("Content-Disposition")!: "attachment; filename=\"\(name)\"",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
