import Rules
import Reporting

extension SpatialCheck {
    /// `spatialcheck rules --format json`: the catalog for machines, plus what is not checked.
    public static func ruleCatalogJSON() -> JSON {
        .object([
            ("format", .string("spatialcheck-rules/1")),
            ("tool", .object([("name", .string("spatialcheck")), ("version", .string(version))])),
            ("rules", .array(RuleCatalog.entries().map { e in
                .object([
                    ("id", .string(e.id)), ("name", .string(e.name)), ("category", .string(e.category)),
                    ("defaultSeverity", .string(e.defaultSeverity)),
                    ("platforms", .array(e.platforms.map(JSON.string))), ("unit", .string(e.unit)),
                    ("summary", .string(e.summary)), ("rationale", .string(e.rationale)), ("fix", .string(e.fixHint)),
                    ("parameters", .array(e.parameters.map { p in
                        .object([("key", .string(p.key)), ("default", .rounded(p.defaultValue)), ("unit", .string(p.unit)),
                                 ("origin", .string(p.origin)), ("justification", .optional(p.justification)),
                                 ("summary", .string(p.summary))])
                    })),
                    ("citations", .array(e.citations.map(JSON.string))), ("urls", .array(e.urls.map(JSON.string))),
                    ("help", .string(e.help)), ("examples", .array(e.examples.map(JSON.string))),
                    ("notes", .array(e.notes.map(JSON.string))),
                ])
            })),
            ("manualReview", .array(RuleCatalog.manualReview.map { m in
                .object([("id", .string(m.id)), ("summary", .string(m.summary)), ("source", .string(RuleCatalog.forPeople(m.source)))])
            })),
            ("notChecked", .array(RuleCatalog.notChecked.map { u in
                .object([("id", .string(u.id)), ("source", .string(RuleCatalog.forPeople(u.source))), ("needs", .string(u.needs))])
            })),
        ])
    }
}
