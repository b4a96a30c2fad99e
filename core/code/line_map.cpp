// Source <-> listing line links. See line_map.h.
#include "core/code/line_map.h"

#include <algorithm>

namespace sml {

bool same_source_file(const std::string& compiled_path, const std::string& source) {
    if (source.empty() || compiled_path.empty()) return false;
    if (compiled_path == source) return true;
    return compiled_path.size() > source.size() &&
           compiled_path.compare(compiled_path.size() - source.size(), source.size(), source) ==
               0 &&
           compiled_path[compiled_path.size() - source.size() - 1] == '/';
}

LineMap LineMap::build(const AsmListing& listing, const std::string& source) {
    LineMap m;
    std::vector<bool> in_file(listing.files.size(), false);
    for (size_t f = 0; f < listing.files.size(); ++f)
        in_file[f] = same_source_file(listing.files[f], source);
    m.charged_of_line_.assign(listing.lines.size(), 0);
    auto grow = [&m](int line) {
        if (m.reached_.size() <= static_cast<size_t>(line)) {
            m.reached_.resize(line + 1);
            m.charged_.resize(line + 1);
        }
    };
    for (size_t i = 0; i < listing.lines.size(); ++i) {
        const AsmLine& l = listing.lines[i];
        if (!l.instruction) continue;
        ++m.instructions_;
        int charged = 0;
        int last_reached = 0;
        for (int k = l.frames_begin; k < l.frames_end; ++k) {
            const AsmFrame& f = listing.frames[k];
            if (f.file < 0 || static_cast<size_t>(f.file) >= in_file.size() || !in_file[f.file] ||
                f.line <= 0)
                continue;
            if (charged == 0) charged = f.line;
            if (f.line == last_reached) continue;  // a chain can name one line twice
            grow(f.line);
            std::vector<int>& r = m.reached_[f.line];
            if (r.empty() || r.back() != static_cast<int>(i)) r.push_back(static_cast<int>(i));
            last_reached = f.line;
        }
        if (charged > 0) {
            m.charged_of_line_[i] = charged;
            m.charged_[charged].push_back(static_cast<int>(i));
            ++m.mapped_instructions_;
        }
    }
    for (size_t line = 0; line < m.charged_.size(); ++line)
        if (!m.charged_[line].empty()) m.mapped_.push_back(static_cast<int>(line));
    m.rank_.assign(m.charged_.size(), -1);
    for (size_t r = 0; r < m.mapped_.size(); ++r) m.rank_[m.mapped_[r]] = static_cast<int>(r);
    return m;
}

int LineMap::source_line(int listing_line) const {
    if (listing_line < 0 || static_cast<size_t>(listing_line) >= charged_of_line_.size()) return 0;
    return charged_of_line_[listing_line];
}

namespace {
const std::vector<int> kNone;
}

const std::vector<int>& LineMap::reached_from(int source_line) const {
    if (source_line <= 0 || static_cast<size_t>(source_line) >= reached_.size()) return kNone;
    return reached_[source_line];
}

const std::vector<int>& LineMap::charged_to(int source_line) const {
    if (source_line <= 0 || static_cast<size_t>(source_line) >= charged_.size()) return kNone;
    return charged_[source_line];
}

int LineMap::color_slot(int source_line, int slots) const {
    if (slots <= 0 || source_line <= 0 || static_cast<size_t>(source_line) >= rank_.size())
        return -1;
    const int r = rank_[source_line];
    return r < 0 ? -1 : r % slots;
}

}  // namespace sml
