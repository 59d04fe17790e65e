import Foundation
import StrataStorage

/// The `NSFetchedResultsController` of Strata: a query's objects in named sections, mapped to the values a view
/// shows, with a delegate told exactly which sections and rows to insert, delete, move and reload after each commit.
///
/// It listens to its results' own fine-grained notifications, so writes need nothing special (unlike the
/// RealmResultsController's `addNotified`/`deleteNotified`): any commit, from any thread or process, that changes
/// what it shows reaches the delegate, coalesced when commits come faster than they are delivered.
///
/// ```swift
/// let request = ResultsRequest(Task.self, predicate: "resolved == false",
///                              sortDescriptors: ["projectName", "title"])
/// let controller = ResultsController(request: request, in: db, sectionKeyPath: "projectName",
///                                    mapper: TaskRow.init, filter: { $0.assignee == me })
/// controller.delegate = self
/// try controller.performFetch()
/// controller.numberOfSections; controller.numberOfObjects(in: 0); controller.object(at: IndexPath(row: 0, section: 0))
/// ```
///
/// The controller belongs to its database's thread or queue, and its delegate is called there (the main queue for
/// a database opened on the main thread; the database's queue for one opened with `Database(configuration:queue:)`).
/// Sections are made by consecutive values of `sectionKeyPath`, which must therefore be the first sort descriptor.
public final class ResultsController<Element: Object, Mapped> {
    /// What the controller fetches: the model, the predicate and the order.
    public let request: ResultsRequest<Element>
    /// The database it reads.
    public let database: Database
    /// The key path whose values name the sections (the first sort descriptor's), or nil for one section.
    public let sectionKeyPath: String?
    /// Told about every change after `performFetch()`; held weakly.
    public weak var delegate: (any ResultsControllerDelegate<Mapped>)?
    /// Why the controller stopped following changes (the database could not be read), or nil while it follows
    /// them. The sections keep their last state; `performFetch()` starts over.
    public private(set) var error: Error?

    private let mapper: (Element) -> Mapped
    private let filter: ((Element) -> Bool)?
    private var snapshot = ControllerSnapshot<ObjectKey, Mapped>.empty
    private var token: NotificationToken?
    /// The version `performFetch()` read, so that the first delivery only reports what came after it.
    private var fetchedVersion: UInt64?

    /// A controller that maps each object with `mapper` (to a plain value a view can keep) and shows only the
    /// objects `filter` keeps (for conditions a predicate cannot say: computed properties, app state).
    ///
    /// - Parameters:
    ///   - request: The model, predicate and sort descriptors.
    ///   - database: The database to read; the controller belongs to its thread or queue.
    ///   - sectionKeyPath: The key path that names sections; it must be the first sort descriptor's.
    ///   - mapper: Turns an object into what the controller hands out; called for new and changed objects only.
    ///   - filter: Keeps an object when it returns true; nil keeps every object.
    public init(
        request: ResultsRequest<Element>, in database: Database, sectionKeyPath: String? = nil,
        mapper: @escaping (Element) -> Mapped, filter: ((Element) -> Bool)? = nil
    ) {
        self.request = request
        self.database = database
        self.sectionKeyPath = sectionKeyPath
        self.mapper = mapper
        self.filter = filter
    }

    /// Runs the request, fills the sections and starts listening to changes. Calling it again starts over
    /// (no delegate calls, as with `NSFetchedResultsController`).
    ///
    /// - Throws: `StrataError.invalidPredicate` for a malformed predicate, `StrataError.invalidArgument` when
    ///   `sectionKeyPath` is not the first sort descriptor or a sort descriptor names an unknown key path.
    public func performFetch() throws {
        token?.invalidate()
        token = nil
        if let sectionKeyPath, request.sortDescriptors.first?.keyPath != sectionKeyPath {
            throw StrataError.invalidArgument(
                "ResultsController<\(Element.self)>: the section key path '\(sectionKeyPath)' must be the first sort "
                    + "descriptor (sections are runs of equal values), but the first sort descriptor is "
                    + (request.sortDescriptors.first.map { "'\($0.keyPath)'" } ?? "missing")
                    + "; sort by '\(sectionKeyPath)' first")
        }
        let results = try request.results(in: database)
        error = nil
        fetchedVersion = database.version
        let section = results.sectionNameReader()
        let keys = results.keys
        snapshot = ControllerSnapshot(entries: keys.indices.map { entry(of: results, key: keys[$0], at: $0, section: section) })
        // Observing from a snapshot of what was just read makes the first delivery report only the commits since
        // the fetch; without one (inside a write transaction, where nothing can be frozen), a commit before the
        // first delivery rebuilds the sections and reports every object as updated.
        let observer: (CollectionChange<Results<Element>>) -> Void = { [weak self] change in self?.apply(change) }
        if let snapshot = try? database.freeze() {
            token = results.observe(since: snapshot, keys: keys, observer)
        } else {
            token = results.observe(observer)
        }
    }

    // MARK: - What the controller shows

    /// The sections, in order.
    public var sections: [ResultsSection<Mapped>] { snapshot.sections }

    /// How many sections there are (0 before `performFetch()` and when nothing matches).
    public var numberOfSections: Int { snapshot.sections.count }

    /// How many objects section `section` holds.
    public func numberOfObjects(in section: Int) -> Int {
        precondition(section >= 0 && section < snapshot.sections.count,
                     "ResultsController: section \(section) is out of range (there are \(snapshot.sections.count))")
        return snapshot.sections[section].numberOfObjects
    }

    /// The mapped object at `indexPath` (section, then row).
    public func object(at indexPath: IndexPath) -> Mapped {
        precondition(indexPath.count == 2, "ResultsController: \(indexPath) is not a section and row")
        let section = indexPath[0]
        let row = indexPath[1]
        precondition(section >= 0 && section < snapshot.sections.count && row >= 0
                        && row < snapshot.sections[section].objects.count,
                     "ResultsController: \(indexPath) is out of range")
        return snapshot.sections[section].objects[row]
    }

    // MARK: - Following changes

    private func apply(_ change: CollectionChange<Results<Element>>) {
        switch change {
        case .initial(let results):
            // The fetch already read the results; catch up only if a commit landed before the first delivery.
            guard results.database.version != fetchedVersion else { return }
            advance(to: results) {
                ControllerTransition.rebuilding(newKeys: results.keys, from: snapshot, entry: $0)
            }
        case .update(let results, let deletions, let insertions, let modifications):
            advance(to: results) {
                ControllerTransition.applying(
                    deletions: deletions, insertions: insertions, modifications: modifications,
                    newKeys: results.keys, to: snapshot, entry: $0)
            }
        case .error(let error):
            // The observation has ended (the database could not be read); keep what was shown and say why.
            self.error = error
        }
    }

    private func advance(
        to results: Results<Element>,
        _ transition: ((Int) -> ControllerEntry<ObjectKey, Mapped>) -> ControllerTransition<ObjectKey, Mapped>
    ) {
        let section = results.sectionNameReader()
        let keys = results.keys
        let next = transition { index in self.entry(of: results, key: keys[index], at: index, section: section) }
        let changes = ControllerChanges(from: snapshot, to: next)
        snapshot = next.snapshot
        if !changes.isEmpty, let delegate { changes.deliver(to: delegate) }
    }

    /// The entry of the object `key` at `index` of `results`: its section, and its mapped value unless filtered out.
    private func entry(
        of results: Results<Element>, key: ObjectKey, at index: Int, section: (ObjectKey) -> String
    ) -> ControllerEntry<ObjectKey, Mapped> {
        let object = results[index]
        let kept = filter?(object) ?? true
        return ControllerEntry(
            key: key, sectionName: sectionKeyPath == nil ? "" : section(key), value: kept ? mapper(object) : nil)
    }
}

extension ResultsController where Mapped == Element {
    /// A controller that hands out the objects themselves (managed, live objects of its database).
    public convenience init(
        request: ResultsRequest<Element>, in database: Database, sectionKeyPath: String? = nil,
        filter: ((Element) -> Bool)? = nil
    ) {
        self.init(request: request, in: database, sectionKeyPath: sectionKeyPath, mapper: { $0 }, filter: filter)
    }
}
