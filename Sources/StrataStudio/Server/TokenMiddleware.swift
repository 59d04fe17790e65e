import Hummingbird

/// Refuses every request that does not carry the ``AccessToken`` (query parameter, cookie or header) with 401, and
/// sets the cookie when the token came in the address, so the page's later requests carry it.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: AccessToken

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let fromQuery = request.uri.queryParameters[AccessToken.parameter[...]]
        let fromHeader = request.headers[.init(AccessToken.header)!].map { $0[...] }
        let fromCookie = request.cookies[AccessToken.cookie].map { $0.value[...] }
        guard token.matches(fromQuery) || token.matches(fromHeader) || token.matches(fromCookie) else {
            return Response(
                status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "Strata Studio: this request has no valid access token. "
                    + "Open the address the `strata studio` command printed (it holds the token).\n")))
        }
        var response = try await next(request, context)
        if token.matches(fromQuery), !token.matches(fromCookie) {
            response.headers[values: .setCookie].append(
                "\(AccessToken.cookie)=\(token.value); Path=/; HttpOnly; SameSite=Strict")
        }
        return response
    }
}
