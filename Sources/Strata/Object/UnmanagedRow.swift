import StrataStorage

/// The row an unmanaged object writes its values into when a database adds it: generated classes write each
/// persisted property straight into the table's row (``ObjectBase/writeValues(into:)``), with no array of
/// ``PersistedValue`` in between and no second conversion pass.
///
/// The object layer keeps one per model (``ModelBinding``) and reuses it from one added object to the next: its
/// arrays are overwritten in place, and a list or set column takes back the array the previous object's elements
/// filled (the table copies the values into its clusters and keeps no reference to them).
///
/// Values of the model's value columns (everything but links and mixed values) go into the store's row, in the
/// order of the table's columns the add inserts; link and mixed properties are kept as persisted values, which the
/// add resolves once the row exists.
@_spi(StrataGenerated) public struct UnmanagedRow {
    /// For each property (by column index): its position in ``values`` (zero or more), or `-1 - p` for position
    /// `p` in ``links``.
    @usableFromInline let slots: [Int]
    /// The values of the model's value columns, in ``ModelBinding/valueColumns`` order.
    @usableFromInline var values: [StorageValue]
    /// The values of the model's link and mixed properties, in ``ModelBinding/linkProperties`` order.
    var links: [PersistedValue]
    /// How many properties the object wrote: the add takes the row only when every one was written once.
    @usableFromInline var writtenCount = 0
    /// Whether a value column was given a value the store cannot hold as a row value (an object in a column whose
    /// target model the database leaves out): the add then stores the object the general way.
    private(set) var isStorable = true
    /// The column whose elements ``appendElement(_:)`` collects (between ``beginElements(at:)`` and
    /// ``endElements()``).
    private var elementColumn = 0
    /// The elements collected for a value column.
    private var elements: [StorageValue] = []
    /// The elements collected for a link or mixed column.
    private var linkElements: [PersistedValue] = []

    /// An empty row for a model whose properties sit at `slots`.
    init(slots: [Int], valueCount: Int, linkCount: Int) {
        self.slots = slots
        values = Array(repeating: .null, count: valueCount)
        links = Array(repeating: .null, count: linkCount)
    }

    /// Makes the row ready for the next object (its values are overwritten as that object writes them).
    mutating func reset() {
        writtenCount = 0
        isStorable = true
    }

    /// Lets go of the objects the last add wrote into the row: link and mixed values hold objects, and a managed
    /// object holds its database, so a row kept by its model binding (which the database owns) would otherwise keep
    /// the database, and its file, open after the app let go of it.
    mutating func releaseObjects() {
        for position in links.indices { links[position] = .null }
        linkElements.removeAll(keepingCapacity: true)
    }

    /// Writes the value of property `column` (its index in ``ModelDescription/properties``).
    ///
    /// A column the model does not have leaves the row unstorable (the add then takes the general way, which
    /// reads ``ObjectBase/persistedValues()``).
    ///
    /// Inlined into the generated `writeValues(into:)`: a primitive value (whose case the generated line makes
    /// known) goes into its slot as a stored value there, with no call and no conversion of a `PersistedValue` at
    /// run time; anything else takes ``writeConverting(_:at:)``.
    @inlinable @inline(__always) public mutating func write(_ value: PersistedValue, at column: Int) {
        if column >= 0, column < slots.count {
            let slot = slots[column]
            if slot >= 0, let stored = value.primitiveStorageValue {
                writtenCount += 1
                values[slot] = stored
                return
            }
        }
        writeConverting(value, at: column)
    }

    /// ``write(_:at:)`` for what its inlined part leaves: a link or mixed property, a value that needs converting
    /// (data, dates, lists...), a column the model does not have.
    @usableFromInline mutating func writeConverting(_ value: PersistedValue, at column: Int) {
        writtenCount += 1
        guard column >= 0, column < slots.count else {
            isStorable = false
            return
        }
        let slot = slots[column]
        guard slot >= 0 else {
            links[-1 - slot] = value
            return
        }
        if let stored = ValueConversion.storageValue(value) {
            values[slot] = stored
        } else {
            isStorable = false
        }
    }

    /// Writes the elements of a list property, in order.
    @inlinable public mutating func write<Element>(elements list: List<Element>, at column: Int) {
        write(elements: list, unmanaged: list.unmanagedElements, at: column)
    }

    /// Writes the elements of a set property, in the set's order.
    @inlinable public mutating func write<Element>(elements set: MutableSet<Element>, at column: Int) {
        write(elements: set, unmanaged: set.unmanagedElements, at: column)
    }

    /// Writes the elements of a list or set property: the unmanaged collection's own array when it has one (no
    /// iterator), else each element of `collection`.
    @inlinable mutating func write<Element: ListElement, Collection: Sequence<Element>>(
        elements collection: Collection, unmanaged: [Element]?, at column: Int
    ) {
        beginElements(at: column)
        if let array = unmanaged {
            for element in array { appendElement(element.persistedValue) }
        } else {
            for element in collection { appendElement(element.persistedValue) }
        }
        endElements()
    }

    /// Starts collecting the elements of property `column`, reusing the array its previous value held.
    @usableFromInline mutating func beginElements(at column: Int) {
        elementColumn = column
        guard column >= 0, column < slots.count else {
            isStorable = false
            return
        }
        let slot = slots[column]
        guard slot >= 0 else {
            linkElements = []
            return
        }
        // The previous object's elements, now referenced by the row alone: taken out, emptied in place, reused.
        if case .list(let previous) = values[slot] {
            values[slot] = .null
            elements = previous
        }
        elements.removeAll(keepingCapacity: true)
    }

    /// Adds one element to the collection ``beginElements(at:)`` started.
    @usableFromInline mutating func appendElement(_ value: PersistedValue) {
        guard isStorable else { return }
        guard slots[elementColumn] >= 0 else {
            linkElements.append(value)
            return
        }
        if let stored = ValueConversion.storageValue(value) {
            elements.append(stored)
        } else {
            isStorable = false
        }
    }

    /// Writes the collected elements as the value of the column ``beginElements(at:)`` named.
    @usableFromInline mutating func endElements() {
        writtenCount += 1
        guard isStorable else { return }
        let slot = slots[elementColumn]
        guard slot >= 0 else {
            links[-1 - slot] = .list(linkElements)
            return
        }
        values[slot] = .list(elements)
        elements = []
    }
}
