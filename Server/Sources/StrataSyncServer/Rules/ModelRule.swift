/// Who reads and writes the objects of one model.
public enum ModelRule: Sendable, Hashable {
    /// `owner: field`: a user reads and writes exactly the objects whose `field` (a string property) holds the
    /// user's id (the token's `sub`); a new object must name its creator there, and nobody can give it away.
    case owner(field: String)
    /// `shared: read` (with optional `writers: [ids]`) or `shared: readWrite`: every user reads every object;
    /// with `read` only the listed users write, with `readWrite` every user does.
    case shared(writers: Set<String>?)

    /// Whether `user` may write objects of the model at all (the owner check comes on top for `owner`).
    func allowsWrites(by user: String) -> Bool {
        switch self {
        case .owner: return true
        case .shared(let writers): return writers?.contains(user) ?? true
        }
    }
}
