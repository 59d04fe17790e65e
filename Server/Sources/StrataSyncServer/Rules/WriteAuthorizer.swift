/// Decides whether one user may make one validated change, given what the server knows of the object.
struct WriteAuthorizer {
    /// The rules.
    let rules: AccessRules
    /// The token's user.
    let user: String

    /// Checks the change.
    /// - Parameter state: The object's state, `nil` for an object never created.
    /// - Returns: The object's owner after the change (for `owner` rules; `nil` otherwise), which the change log
    ///   records so that downloads show the change to that owner only.
    /// - Throws: `SyncError.forbidden` naming the change and the rule that refuses it.
    func authorize(_ change: ValidatedChange, state: ObjectState?) throws -> String? {
        let model = change.table.model
        func refuse(_ message: String) -> SyncError { SyncError(.forbidden, "\(change.label): \(message)") }
        guard let rule = rules.models[model] else {
            throw refuse("model \(model) is not synced: the rules file has no rule for it")
        }
        guard rule.allowsWrites(by: user) else {
            throw refuse("model \(model) is shared read-only; user \(user) may not write it")
        }
        guard case .owner(let field) = rule else { return nil }
        if let state, state.deleted == nil || change.change.op != .create, state.ownerID != user {
            throw refuse("the object belongs to another user; user \(user) may not change it")
        }
        let given = change.values.first { $0.property == field }
        switch change.change.op {
        case .create:
            guard let given, given.parameter == user else {
                throw refuse("a new \(model) must have \(field) = \"\(user)\" (the token's user)")
            }
        case .set:
            guard let given else { break }
            guard given.parameter == user else {
                throw refuse("\(field) is the owner; user \(user) may not give the object to someone else")
            }
        default:
            break
        }
        return user
    }
}
