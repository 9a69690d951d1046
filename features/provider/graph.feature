@provider
Feature: Graph anchors (§8, G3, G4)
  Anchors are taken from what the target serves, chosen so that the unanchored answer's top frame is not
  anchored by them: only honouring the anchor can bring an anchored frame into a max_frames 1 answer.

  @G4 @needs-graph
  Scenario: Anchored at zero hops, a max_frames 1 answer is the anchored frame
    Given the provider under test has answered the handshake
    When the harness queries anchored on a frame's own uri with max_frames 1
    Then G4 is satisfied

  @G4 @needs-graph
  Scenario: Anchored at one hop, a max_frames 1 answer is an anchored frame
    Given the provider under test has answered the handshake
    When the harness queries anchored on a relation target with max_frames 1
    Then G4 is satisfied

  @G4 @needs-graph
  Scenario: Anchored at one hop on a target that is no frame's own uri, a max_frames 1 answer is an anchored frame
    Given the provider under test has answered the handshake
    When the harness queries anchored on a relation target that is no frame's uri with max_frames 1
    Then G4 is satisfied

  @G4 @needs-graph
  Scenario: Anchored frames are returned, and ranked above unanchored ones
    Given the provider under test has answered the handshake
    When the harness queries anchored on a frame's own uri with max_frames 64
    And the harness queries anchored on a relation target with max_frames 64
    Then G4 is satisfied

  @G3 @S5-anchor-boost @needs-graph
  Scenario: Frames near a query anchor are boosted
    Given the provider under test has answered the handshake
    When the harness queries anchored on a frame's own uri with max_frames 64
    And the harness queries anchored on a relation target with max_frames 64
    Then G3 and S5-anchor-boost are satisfied
