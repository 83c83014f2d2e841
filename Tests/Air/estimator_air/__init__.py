"""The project's test-only air: Bumble's controller model, corrected where
it departs from the Core specification in ways the Linux kernel and BlueZ
rely on (docs/RIG.md, The Bumble controller model), and an iPhone running
the Estimator app (`iphone`). Nothing is imported here: the iPhone model
needs only the standard library, and starts faster in the rig without
Bumble."""
