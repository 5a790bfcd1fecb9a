#!/usr/bin/env node
// The last step of `npm run build`: builds the local chain's genesis for the default parameters
// (chain id 4, the fixed seed's root key and ten pre-funded accounts) into dist/genesis/, so a first
// start in a new data directory imports it instead of running the framework's genesis functions
// (~1 s of CPU). Built by the code it ships with; the node checks its key before using it and
// builds the genesis itself when the parameters differ. Then its index (the indexer's rows of
// version 0), so a new data directory's indexer starts past genesis (src/indexer/prebuiltIndex.ts).
import { writePrebuiltLocalGenesis, writePrebuiltLocalIndex } from "../dist/LocalChain.js"

writePrebuiltLocalGenesis()
await writePrebuiltLocalIndex()
