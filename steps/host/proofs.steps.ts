// Inclusion proofs kept through composition (F13). A scripted provider serves a signed result (with or
// without per-frame inclusion proofs); the host under test fans out and composes under a budget that
// keeps a strict subset; the check in src/conformance/host-suite/checks/proofs.ts folds every kept frame's
// proof against the signed root. Thin: the steps drive the HostScenario and hand observations over.
import { Given, Then } from '@cucumber/cucumber';
import { checkKeptProofsRecomputeRoot, signedResultScript } from '../../src/conformance/host-suite/checks/proofs.js';
import type { SuiteWorld } from '../world.js';

Given('a scripted provider {string} that signs its result without inclusion proofs', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    this.h.scripted(label, signedResultScript(label, false));
  });
});

Given('a scripted provider {string} that signs its result and ships an inclusion proof per frame', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    this.h.scripted(label, signedResultScript(label, true));
  });
});

Then("every frame the composition kept of {string}'s signed result carries an inclusion proof recomputing its root \\(F13)", async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    const config = this.h.provider(label).config;
    this.judge(checkKeptProofsRecomputeRoot(String(config.name ?? label), config.rawResult, this.h.lastComposed));
  });
});
