/// One section of a ``ResultsController``: the objects that share a value of its `sectionKeyPath`, in order.
public struct ResultsSection<Mapped> {
    /// The section's value of `sectionKeyPath`, as text (`""` for nil; the whole list when there is no section key
    /// path).
    public let name: String
    /// The section's objects, mapped, in the controller's order.
    public let objects: [Mapped]

    /// How many objects the section holds.
    public var numberOfObjects: Int { objects.count }
}

extension ResultsSection: Sendable where Mapped: Sendable {}
