/* board_page.c: a game as a self-contained HTML page that steps through it (board_page.h). */
#include "board_page.h"

#include <string.h>

#include "board_svg.h"
#include "json.h"

static const char page_style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222}"
    "nav{margin:0.8em 0}nav button{font-size:15px;margin-right:0.4em;padding:0.3em 0.9em}"
    "#info td,#info th{padding:0.15em 0.8em 0.15em 0;text-align:left}"
    "#info th{font-weight:normal;color:#555}"
    "#apn{font-family:monospace}#outcome{font-weight:bold}"
    ".hint{color:#666;font-size:13px}#trail{display:none}";

/* The script: it shows step `at` of the data (each hole's count and marks, the stores, the
 * turn and the table), and moves `at` on the buttons and keys. It draws nothing of its own:
 * every text and class comes from the data. */
static const char page_script[] =
    "(function(){\n"
    "var steps=JSON.parse(document.getElementById('steps').textContent);\n"
    "var at=0,board=document.querySelector('#board svg');\n"
    "function put(id,text){document.getElementById(id).textContent=text;}\n"
    "function show(k){\n"
    " at=Math.max(0,Math.min(steps.length-1,k));\n"
    " var s=steps[at],holes=board.querySelectorAll('[data-hole]');\n"
    " for(var i=0;i<holes.length;i++){\n"
    "  var g=holes[i],h=+g.getAttribute('data-hole'),m=s.marks[h]||'';\n"
    "  g.setAttribute('data-count',s.pits[h]);\n"
    "  g.querySelector('.count').textContent=s.pits[h];\n"
    "  g.setAttribute('data-marks',m);\n"
    "  g.setAttribute('class',m?'hole '+m:'hole');\n"
    " }\n"
    " var stores=board.querySelectorAll('[data-store]');\n"
    " for(var j=0;j<stores.length;j++){\n"
    "  var c=s.stores[stores[j].getAttribute('data-store')=='S'?0:1];\n"
    "  stores[j].setAttribute('data-count',c);\n"
    "  stores[j].querySelector('.count').textContent=c;\n"
    " }\n"
    " var turn=board.querySelector('.turn');\n"
    " turn.textContent=s.turn;turn.setAttribute('data-side',s.side);\n"
    " var info=document.getElementById('info');\n"
    " info.setAttribute('data-ply',s.ply);\n"
    " put('ply',s.ply);put('mover',s.mover);put('move',s.move);put('event',s.event);\n"
    " put('south',s.stores[0]);put('north',s.stores[1]);put('apn',s.apn);\n"
    " put('where','step '+at+' of '+(steps.length-1));\n"
    " document.getElementById('outcome').hidden=at!=steps.length-1;\n"
    "}\n"
    "var buttons={n:'next',p:'prev',f:'first',l:'last'};\n"
    "var moves={next:function(){show(at+1);},prev:function(){show(at-1);},\n"
    " first:function(){show(0);},last:function(){show(steps.length-1);}};\n"
    "for(var b in moves)document.getElementById(b).addEventListener('click',moves[b]);\n"
    "var keys={ArrowRight:'next',ArrowLeft:'prev',Home:'first',End:'last'};\n"
    "document.addEventListener('keydown',function(e){\n"
    " if(keys[e.key]){e.preventDefault();moves[keys[e.key]]();}\n"
    "});\n"
    "function keep(){var c=document.getElementById('view').cloneNode(true);\n"
    " c.removeAttribute('id');c.setAttribute('data-step',at);\n"
    " document.getElementById('trail').appendChild(c);}\n"
    "function press(ch){\n"
    " if(buttons[ch])document.getElementById(buttons[ch]).click();\n"
    " else document.dispatchEvent(new KeyboardEvent('keydown',"
    "{key:ch=='>'?'ArrowRight':'ArrowLeft'}));\n"
    "}\n"
    "put('outcome',document.getElementById('outcome-text').textContent);\n"
    "show(0);\n"
    "var h=decodeURIComponent(location.hash);\n"
    "var m=/^#ply=([0-9]+)$/.exec(h),p=/^#press=([npfl<>]*)$/.exec(h);\n"
    "if(m)for(var i=0;i<+m[1];i++)press('n');\n"
    "if(p)for(var k=0;k<p[1].length;k++){press(p[1][k]);keep();}\n"
    "})();\n";

void board_page_begin(BoardPage *pg, FILE *out, const Variant *v, const char *title,
                      const char *about)
{
    pg->out = out;
    pg->v = v;
    pg->steps = 0;
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>");
    markup_text(out, title, strlen(title));
    fprintf(out, "</title>\n<style>%s</style></head><body>\n<h1>", page_style);
    markup_text(out, title, strlen(title));
    fprintf(out, "</h1>\n<p>");
    markup_text(out, about, strlen(about));
    fprintf(out, "</p>\n<nav><button id=\"first\">First</button><button id=\"prev\">Previous"
                 "</button><button id=\"next\">Next</button><button id=\"last\">Last</button>"
                 " <span id=\"where\"></span></nav>\n<div id=\"view\">\n"
                 "<table id=\"info\" data-ply=\"0\">"
                 "<tr><th>ply</th><td id=\"ply\"></td><th>mover</th><td id=\"mover\"></td>"
                 "<th>move</th><td id=\"move\"></td><th>event</th><td id=\"event\"></td></tr>"
                 "<tr><th>South's store</th><td id=\"south\"></td><th>North's store</th>"
                 "<td id=\"north\"></td><th>APN</th><td id=\"apn\" colspan=\"3\"></td></tr>"
                 "</table>\n<div id=\"board\">\n");
}

void board_page_start(BoardPage *pg, const Position *start)
{
    FILE *out = pg->out;
    const Variant *v = pg->v;
    BoardMarks none = board_marks_none();
    board_svg_write(out, v, start, &none, NULL);
    fprintf(out, "</div>\n<p id=\"outcome\" hidden></p>\n</div>\n"
                 "<p class=\"hint\">Keys: right and left arrows step, Home and End go to the "
                 "start and the end. Holes are named S1 to S%d from South's left and N1 to N%d "
                 "from North's left; sowing runs counter-clockwise.</p>\n"
                 "<script id=\"steps\" type=\"application/json\">[\n", v->holes, v->holes);
    board_page_move(pg, 0, -1, start, start, EV_NEXT, NULL);
}

/* One step's data: the position after the move, its marks, and the table's texts. */
void board_page_move(BoardPage *pg, uint32_t ply, int move, const Position *before,
                     const Position *after, MoveEvent ev, const MoveTrace *trace)
{
    FILE *out = pg->out;
    const Variant *v = pg->v;
    BoardMarks m = move < 0 ? board_marks_none() : board_marks_of_move(move, ev, trace);
    char name[HOLE_NAME_MAX] = "-", marks[BOARD_MARKS_TEXT_MAX], apn[APN_MAX];
    if (move >= 0)
        hole_name(v, move, name);
    apn_format(v, after, apn);
    fprintf(out, "%s{\"ply\":%u,\"mover\":\"%s\",\"move\":\"%s\",\"event\":\"%s\",\"pits\":[",
            pg->steps ? ",\n" : "", ply,
            move < 0 ? "-" : before->side == SOUTH ? "South" : "North", name,
            move < 0 ? "start" : move_event_name(ev));
    for (int h = 0; h < v->pits; h++)
        fprintf(out, "%s%u", h ? "," : "", after->pit[h]);
    fprintf(out, "],\"stores\":[%u,%u],\"side\":\"%c\",\"turn\":", after->store[SOUTH],
            after->store[NORTH], pos_over(v, after) ? '-' : after->side == SOUTH ? 'S' : 'N');
    json_quoted(out, board_turn_text(v, after), true);
    fprintf(out, ",\"apn\":");
    json_quoted(out, apn, true);
    fprintf(out, ",\"marks\":{");
    for (int h = 0, n = 0; h < v->pits; h++) {
        board_hole_marks(&m, h, marks);
        if (marks[0])
            fprintf(out, "%s\"%d\":\"%s\"", n++ ? "," : "", h, marks);
    }
    fprintf(out, "}}");
    pg->steps++;
}

void board_page_end(BoardPage *pg, const char *outcome)
{
    FILE *out = pg->out;
    fprintf(out, "\n]</script>\n<div id=\"outcome-text\" hidden>");
    markup_text(out, outcome, strlen(outcome));
    fprintf(out, "</div>\n<div id=\"trail\"></div>\n<script>\n%s</script>\n</body></html>\n",
            page_script);
}
