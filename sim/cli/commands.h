/* commands.h: the subcommands of `anywoli`, each in its own file. */
#ifndef ANYWOLI_COMMANDS_H
#define ANYWOLI_COMMANDS_H

int cmd_perft(int argc, char **argv);
int cmd_move(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_agents(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_search(int argc, char **argv);
int cmd_tables(int argc, char **argv);
int cmd_tables_agree(int argc, char **argv);   /* `tables agree`, from cmd_tables */
int cmd_tables_compare(int argc, char **argv);   /* `tables compare`, from cmd_tables */
int cmd_tune(int argc, char **argv);
int cmd_fit(int argc, char **argv);
int cmd_learn(int argc, char **argv);
int cmd_openings(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_engine(int argc, char **argv);

#endif
