// How lab results are printed (`lab run`, `run --source`, `lab exercise --check`). Text for
// people only: scripts read the result JSON.
#pragma once

#include "core/lab/exercises.h"
#include "core/lab/lab_job.h"

namespace sml::cli {

// Status, message and hint; diagnostics at their lines; the point; the busiest source lines.
void print_lab_result(const lab::LabResult& r);
void print_verdict(const lab::Exercise& e, const lab::ExerciseVerdict& v);
// 0 for ok, 1 otherwise (wrong, fault, compile error, ...), 2 for a bad job.
int lab_exit_code(const lab::LabResult& r);

}  // namespace sml::cli
