-- Issue 31 "Quantitative database search": a continuous-model mixture hit keeps both numbers, the scan's LR at Hd's fit
-- (this column) and the exact LR from the candidate's own fit (combined_index).
-- (number 0022: 0021 is another branch's; journal "when" after 0020's.)
ALTER TABLE "hits" ADD COLUMN "scan_combined_index" double precision;