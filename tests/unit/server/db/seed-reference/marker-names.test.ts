import { describe, expect, it } from 'vitest';
import { buildMarkerResolver, markerNameKey } from '../../../../../server/db/seed/reference/marker-names';

const marker = (id: string, name: string, aliases: string[] = [], kind: 'Autosomal' | 'YStr' = 'Autosomal') => ({
  id,
  name,
  kind,
  aliases,
});

describe('markerNameKey', () => {
  it('reads the spellings of one marker the same, whatever the case and separators', () => {
    for (const spelling of ['Penta D', 'PENTA_D', 'PentaD', 'penta-d', 'Penta.D', ' Penta  D ', 'Penta\u00a0D', '\uFEFFPenta D']) {
      expect(markerNameKey(spelling)).toBe('pentad');
    }
  });

  it('keeps letters and digits, so DYS389I and DYS389II, and TH01 and THO1, stay apart', () => {
    expect(markerNameKey('DYS389 I')).toBe('dys389i');
    expect(markerNameKey('DYS389 II')).toBe('dys389ii');
    expect(markerNameKey('TH01')).not.toBe(markerNameKey('THO1'));
  });
});

describe('buildMarkerResolver', () => {
  it('finds a marker by name or alias, ignoring case, and returns only id, name and kind', () => {
    const resolve = buildMarkerResolver([marker('m1', 'vWA', ['VWA']), marker('m2', 'DYS19', [], 'YStr')]);
    expect(resolve('vwa')).toEqual({ id: 'm1', name: 'vWA', kind: 'Autosomal' });
    expect(resolve('V WA')).toEqual({ id: 'm1', name: 'vWA', kind: 'Autosomal' });
    expect(resolve('dys19')).toEqual({ id: 'm2', name: 'DYS19', kind: 'YStr' });
  });

  it('returns undefined for an unknown or empty name instead of guessing', () => {
    const resolve = buildMarkerResolver([marker('m1', 'DYS389I'), marker('m2', 'DYS389II')]);
    expect(resolve('DYS389')).toBeUndefined();
    expect(resolve('DYS389III')).toBeUndefined();
    expect(resolve('')).toBeUndefined();
    expect(resolve('  ')).toBeUndefined();
  });

  it("refuses an alias that reads as another marker's name, naming both", () => {
    expect(() => buildMarkerResolver([marker('m1', 'DYS385', ['DYS385a']), marker('m2', 'DYS385A')])).toThrow(
      /"DYS385A" \(marker "DYS385A"\) and "DYS385a" \(marker "DYS385"\) both read as "dys385a"/,
    );
  });

  it('refuses two markers whose aliases differ only in spelling', () => {
    expect(() => buildMarkerResolver([marker('m1', 'Penta D', ['PENTA_D']), marker('m2', 'PD', ['Penta.D'])])).toThrow(
      /ambiguous/,
    );
  });

  it('refuses two markers with the same name in different case', () => {
    expect(() => buildMarkerResolver([marker('m1', 'vWA'), marker('m2', 'VWA')])).toThrow(/ambiguous/);
  });

  it('accepts a marker whose alias reads as its own name', () => {
    const resolve = buildMarkerResolver([marker('m1', 'vWA', ['VWA', 'vwa'])]);
    expect(resolve('VWA')?.id).toBe('m1');
  });

  it('refuses a blank name or alias, which would match nothing', () => {
    expect(() => buildMarkerResolver([marker('m1', 'TH01', [' '])])).toThrow(/empty name or alias/);
    expect(() => buildMarkerResolver([marker('m1', '_')])).toThrow(/empty name or alias/);
  });
});
