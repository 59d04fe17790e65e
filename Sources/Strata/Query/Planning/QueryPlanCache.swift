import StrataStorage
import Synchronization

/// The query shapes of one database, by model, predicate string and the kinds of its arguments: each keeps the
/// string's parse, its binding to the model (a ``BindingTemplate``, rebound per call) and its plan (a
/// ``CachedPlan``), so a repeated `filter("name == %@", name)` costs a lookup here and a bind, not a parse and a
/// plan.
///
/// Bounded: a program that builds format strings by interpolation (instead of passing arguments) would otherwise
/// fill it forever, so when it is full it starts over. Kept by the database (not shared between databases): a
/// template holds the model bindings its key paths resolved to, and a migration that makes new bindings makes the
/// old entries unusable (each is checked against the binding it was made for). A lock guards it because a frozen
/// database, and so its results' `filter`, may be used from any thread. Malformed strings and arguments that do
/// not fit are never kept, so they fail with their error on every call.
final class QueryPlanCache: Sendable {
    /// How many shapes are kept at most; when full, the cache starts over.
    let capacity: Int
    private let state: Mutex<State>

    /// The kept shapes, and the one used last: a lookup in a loop asks for the same shape each time, which
    /// comparing the keys (equal string storage compares at once) finds without hashing the string.
    private struct State {
        var entries: [Key: Entry] = [:]
        var recent: (key: Key, entry: Entry)?

        /// The shape kept for `key`, remembered as the one used last.
        mutating func entry(for key: Key) -> Entry? {
            if let recent, recent.key == key { return recent.entry }
            guard let entry = entries[key] else { return nil }
            recent = (key, entry)
            return entry
        }
    }

    private struct Key: Hashable {
        let model: Int
        let format: String
        let kinds: ArgumentKinds
    }

    /// A template with the model binding it belongs to, compared by identity on use.
    private struct Entry: @unchecked Sendable {
        // Only created and read under the lock; the template's model bindings are immutable once bound, and its
        // plan guards itself.
        let model: ObjectIdentifier
        let template: BindingTemplate
    }

    /// The one-argument shape the database's owner used last, with its argument's type: read and written without
    /// the lock, and only by ``bind(_:arguments:model:schema:owned:)`` with `owned`, which its caller passes only
    /// for a database that is not frozen, after checking the database's confinement, so that one thread (or one
    /// serial queue, task or actor) at a time reaches it. A lookup in a loop finds its shape here without the lock,
    /// without building its key (``ArgumentKinds``) and without hashing.
    private nonisolated(unsafe) var ownerRecent: OwnerRecent?

    /// See ``ownerRecent``.
    private struct OwnerRecent {
        let model: Int
        let format: String
        let argumentType: ObjectIdentifier
        let entry: Entry
    }

    init(capacity: Int = 128) {
        self.capacity = Swift.max(1, capacity)
        state = Mutex(State())
    }

    /// The predicate string `format` bound for `model` to `arguments`, with the plan of its shape when it has one:
    /// rebound from the kept template of its shape (which holds its parse, so the shared ``PredicateCache`` is not
    /// asked either), else parsed (through that cache) and bound afresh, and kept when
    /// ``BindingTemplate/canRebind(_:)`` allows.
    ///
    /// - Throws: `StrataError.invalidPredicate` naming the offending token: malformed syntax, an argument that
    ///   does not fit its placeholder or its comparison, an unknown property, as ``PredicateBinder/bind(_:)``.
    ///
    /// `owned`: the caller checked the database's confinement and the database is not frozen, so the owner's
    /// slot (``ownerRecent``) may be read and written without the lock.
    func bind(
        _ format: String, arguments: [Any], model: ModelBinding, schema: SchemaBinding, owned: Bool = false
    ) throws -> BoundFilter {
        let identity = ObjectIdentifier(model)
        if owned, arguments.count == 1,
            let recent = ownerRecent(format, model: model, argumentType: ObjectIdentifier(type(of: arguments[0])))
        {
            return try rebind(recent.template, format: format, arguments: arguments, model: model, schema: schema)
        }
        let key = Key(model: model.index, format: format, kinds: ArgumentKinds(arguments))
        if let kept = state.withLock({ $0.entry(for: key) }), kept.model == identity {
            if owned { rememberOwned(kept, format: format, arguments: arguments, model: model) }
            return try rebind(kept.template, format: format, arguments: arguments, model: model, schema: schema)
        }
        let parsed = try PredicateCache.shared.parsed(format)
        let values = try parsed.arguments(arguments)
        let bound = try PredicateBinder(predicate: format, schema: schema, model: model, arguments: values)
            .bind(parsed.node)
        guard BindingTemplate.canRebind(parsed.node) else { return BoundFilter(predicate: bound, plan: nil) }
        let template = BindingTemplate(parsed: parsed, bound: bound)
        let entry = Entry(model: identity, template: template)
        state.withLock { state in
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = entry
            state.recent = (key, entry)
        }
        if owned { rememberOwned(entry, format: format, arguments: arguments, model: model) }
        return BoundFilter(predicate: bound, plan: template.plan)
    }

    /// ``bind(_:arguments:model:schema:owned:)`` for one string argument: when the owner's last shape is
    /// `format`'s for `model` and a string, and a lone `stringProperty == %@`, the string is taken as it is
    /// (no array of `Any`, no cast back out of it); otherwise bound as `[text]`.
    func bind(
        _ format: String, text: String, model: ModelBinding, schema: SchemaBinding, owned: Bool
    ) throws -> BoundFilter {
        if owned, let recent = ownerRecent(format, model: model, argumentType: ObjectIdentifier(String.self)),
            recent.template.isLoneEquality
        {
            let template = recent.template
            return BoundFilter(
                equality: LoneEquality(template: template, text: text), plan: template.plan, equalTo: .string(text))
        }
        return try bind(format, arguments: [text], model: model, schema: schema, owned: owned)
    }

    /// `template` (a kept shape of `format` for `model`) rebound to `arguments`.
    private func rebind(
        _ template: BindingTemplate, format: String, arguments: [Any], model: ModelBinding, schema: SchemaBinding
    ) throws -> BoundFilter {
        if let text = template.loneEqualityArgument(arguments) {
            return BoundFilter(
                equality: LoneEquality(template: template, text: text), plan: template.plan, equalTo: .string(text))
        }
        if let (bound, equalTo) = template.reboundDirectly(to: arguments) {
            return BoundFilter(predicate: bound, plan: template.plan, equalTo: equalTo)
        }
        let values = try template.parsed.arguments(arguments)
        let binder = PredicateBinder(predicate: format, schema: schema, model: model, arguments: values)
        return BoundFilter(predicate: try template.rebound(to: values, with: binder), plan: template.plan)
    }

    /// The owner's last one-argument shape (``ownerRecent``) when it is `format`'s for `model` with an argument of
    /// type `argumentType`; read only with `owned`.
    @inline(__always)
    private func ownerRecent(_ format: String, model: ModelBinding, argumentType: ObjectIdentifier) -> Entry? {
        guard let recent = ownerRecent, recent.model == model.index, recent.entry.model == ObjectIdentifier(model),
            recent.argumentType == argumentType, recent.format == format
        else { return nil }
        return recent.entry
    }

    /// Keeps `entry` as the owner's last one-argument shape (``ownerRecent``); called only with `owned`.
    private func rememberOwned(_ entry: Entry, format: String, arguments: [Any], model: ModelBinding) {
        guard arguments.count == 1 else { return }
        ownerRecent = OwnerRecent(
            model: model.index, format: format, argumentType: ObjectIdentifier(type(of: arguments[0])), entry: entry)
    }

    /// How many shapes are kept now.
    var count: Int { state.withLock { $0.entries.count } }
}

/// A predicate string bound for one call, with the plan of its shape when the shape is cached.
struct BoundFilter {
    /// The filter bound, or `nil` when ``equality`` stands for it.
    private let bound: BoundPredicate?
    /// A lone `stringProperty == %@` rebound from its template, kept unbuilt (see ``LoneEquality``).
    let equality: LoneEquality?
    let plan: CachedPlan?
    /// For a lone `property == %@` rebound straight from its template: the argument as the property's index
    /// stores it, so that the plan turns it into a lookup without reading the comparison back out of `predicate`.
    let equalTo: StorageValue?

    init(predicate: BoundPredicate, plan: CachedPlan?, equalTo: StorageValue? = nil) {
        bound = predicate
        equality = nil
        self.plan = plan
        self.equalTo = equalTo
    }

    init(equality: LoneEquality, plan: CachedPlan, equalTo: StorageValue) {
        bound = nil
        self.equality = equality
        self.plan = plan
        self.equalTo = equalTo
    }

    /// The filter as a bound predicate (built from ``equality`` when it has one).
    var predicate: BoundPredicate { bound ?? equality!.predicate }
}

/// The dynamic types of a call's arguments, part of a cached shape's key: a template is rebound only to arguments
/// of the kinds it was first bound with, so an `Int` and a `Double` (or a `String` and an array) for one
/// placeholder make two shapes, each bound and planned for its kinds. The first three are kept inline, so the
/// usual call (one to three arguments) builds its key without allocating.
struct ArgumentKinds: Hashable {
    private let count: Int
    private let first: ObjectIdentifier?
    private let second: ObjectIdentifier?
    private let third: ObjectIdentifier?
    private let rest: [ObjectIdentifier]

    init(_ arguments: [Any]) {
        count = arguments.count
        func kind(_ position: Int) -> ObjectIdentifier? {
            position < arguments.count ? ObjectIdentifier(type(of: arguments[position])) : nil
        }
        first = kind(0)
        second = kind(1)
        third = kind(2)
        rest = arguments.count > 3 ? arguments.dropFirst(3).map { ObjectIdentifier(type(of: $0)) } : []
    }
}
