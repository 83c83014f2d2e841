#include "concurrency_hooks.h"

/* Exported by swift_Concurrency. */
extern void *swift_task_enqueueGlobal_hook;

void estimator_install_global_executor_hook(void *hook) {
    swift_task_enqueueGlobal_hook = hook;
}
