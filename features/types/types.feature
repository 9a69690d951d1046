@types
Feature: The published schema keeps every contextgraph/1 field stable (U4)
  A field contextgraph/1 defines is never deleted or redefined within the major family. The published
  schema (schema/, or CGP_SCHEMA_DIR) is inventoried by wire path and JSON type and compared with the
  frozen inventory of the 1.0 fields (vectors/schema-inventory-1.0.json, written once by
  scripts/freeze-schema-inventory.ts). Additions are fine; a missing field, a changed type or a removed
  base-vocabulary value is a failure. Meaning is kept by review and is not claimed here.

  @U4
  Scenario: Every contextgraph/1.0 field is still defined with its name and type
    Given the published schema directory
    When the harness inventories every field the schema defines
    Then every field of the frozen contextgraph/1.0 inventory is still defined with its name and type (U4)

  @S13-authoring-strict @U1
  Scenario: The published schema is the authoring-strict lint; the interop profile accepts what it rejects
    Given the published schema directory
    When the harness injects an unknown member at every depth of the bundled example session's envelopes
    Then the published schema rejects every one and the interop profile accepts every one (S13-authoring-strict, U1)
