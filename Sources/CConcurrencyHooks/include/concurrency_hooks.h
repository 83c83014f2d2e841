#ifndef ESTIMATOR_CONCURRENCY_HOOKS_H
#define ESTIMATOR_CONCURRENCY_HOOKS_H
/* Installs the Swift runtime's hook for its global executor
 * (swift_Concurrency's ConcurrencyHooks.def, swift_task_enqueueGlobal_hook):
 * from then on every job meant for the global concurrent executor goes to
 * the hook instead of to Dispatch. `hook` is a Swift-convention function
 * pointer of the hook's type. In C because Swift sees the runtime's hook
 * variable as shared mutable state it cannot write; it is written once,
 * before any job reaches it. */
void estimator_install_global_executor_hook(void *_Nonnull hook);
#endif
