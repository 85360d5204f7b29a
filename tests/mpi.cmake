# MPI (a build with -DANYWOLI_MPI=ON only): runs under mpirun with 2 and 3 ranks against one
# process, kill -9 of a rank and --resume, SIGTERM, errors and progress from rank 0 alone.
# Label `mpi`: scripts/test.sh runs them from its MPI build.
if(ANYWOLI_MPI)
  add_test(NAME mpi_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/mpi_test.sh
                                $<TARGET_FILE:anywoli> ${MPIEXEC_EXECUTABLE})
  set_tests_properties(mpi_cli PROPERTIES LABELS mpi TIMEOUT 600)
endif()
# tables build under mpirun: with 1 to 3 ranks, the same files as one process (--also,
# --all-levels too), the ranks' figures once a level, errors once from rank 0.
if(ANYWOLI_MPI)
  add_test(NAME mpi_tables COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tables_mpi_test.sh
                                   $<TARGET_FILE:anywoli> ${MPIEXEC_EXECUTABLE})
  set_tests_properties(mpi_tables PROPERTIES LABELS mpi TIMEOUT 300)
endif()
